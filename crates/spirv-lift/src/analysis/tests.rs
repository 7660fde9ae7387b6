//! Property tests against naive oracles, and large-input tests (no stack overflow on
//! long chains and deep nests).

// Index loops over small adjacency matrices read more clearly than iterator chains.
#![allow(clippy::needless_range_loop)]

use proptest::prelude::*;

use super::*;

// ---------------------------------------------------------------------------------
// Generators

/// Arbitrary graphs: self-loops, multi-edges, unreachable blocks, irreducible cycles.
fn arb_graph() -> impl Strategy<Value = Vec<Vec<Node>>> {
    (1usize..=60).prop_flat_map(|n| {
        let edge = (0..n as u32).prop_map(Node);
        let wild = prop::collection::vec(prop::collection::vec(edge.clone(), 0..=3), n);
        // Mostly reachable: block i > 0 gets an edge from a random earlier block.
        let tree = (
            prop::collection::vec(any::<prop::sample::Index>(), n),
            prop::collection::vec(prop::collection::vec(edge, 0..=2), n),
        )
            .prop_map(|(parents, mut extra)| {
                for i in 1..extra.len() {
                    let p = parents[i].index(i);
                    extra[p].push(Node(i as u32));
                }
                // Vary which successor the DFS takes first.
                for (i, l) in extra.iter_mut().enumerate() {
                    if i % 2 == 1 {
                        l.reverse();
                    }
                }
                extra
            });
        prop_oneof![wild, tree]
    })
}

/// Reducible graphs: a DAG with a spanning tree from the entry, plus back edges from
/// blocks to random dominators of theirs (which keeps dominators unchanged).
fn arb_reducible() -> impl Strategy<Value = Vec<Vec<Node>>> {
    (1usize..=60).prop_flat_map(|n| {
        (
            prop::collection::vec(any::<prop::sample::Index>(), n),
            prop::collection::vec(
                (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
                0..n,
            ),
            prop::collection::vec(
                (any::<prop::sample::Index>(), any::<prop::sample::Index>()),
                0..n,
            ),
        )
            .prop_map(move |(parents, fwd, back)| {
                let mut s: Vec<Vec<Node>> = vec![Vec::new(); n];
                for i in 1..n {
                    s[parents[i].index(i)].push(Node(i as u32));
                }
                for (a, b) in fwd {
                    let (a, b) = (a.index(n), b.index(n));
                    if a != b {
                        s[a.min(b)].push(Node(a.max(b) as u32));
                    }
                }
                let cfg = Cfg::new(&s).unwrap();
                let dom = DomTree::compute_reference(&cfg);
                for (u, k) in back {
                    let u = Node(u.index(n) as u32);
                    let mut doms = vec![u];
                    let mut x = u;
                    while let Some(d) = dom.idom(x) {
                        doms.push(d);
                        x = d;
                    }
                    s[u.index()].push(doms[k.index(doms.len())]);
                }
                s
            })
    })
}

// ---------------------------------------------------------------------------------
// Naive oracles

/// `dom[a][b]`: every path from the entry to reachable `b` passes `a`.
fn naive_dominance(cfg: &Cfg) -> Vec<Vec<bool>> {
    let n = cfg.num_blocks();
    let mut m = vec![vec![false; n]; n];
    for a in 0..n {
        if !cfg.is_reachable(Node(a as u32)) {
            continue;
        }
        // Blocks reachable from the entry while avoiding `a`.
        let mut seen = vec![false; n];
        let mut stack = Vec::new();
        if a != 0 {
            seen[0] = true;
            stack.push(0usize);
        }
        while let Some(v) = stack.pop() {
            for s in cfg.succs(Node(v as u32)) {
                if s.index() != a && !seen[s.index()] {
                    seen[s.index()] = true;
                    stack.push(s.index());
                }
            }
        }
        for b in 0..n {
            m[a][b] = cfg.is_reachable(Node(b as u32)) && !seen[b];
        }
    }
    m
}

/// Natural loop of `h`: latches and sorted body by backward flood fill.
fn naive_loop(cfg: &Cfg, dom: &DomTree, h: Node) -> Option<(Vec<Node>, Vec<Node>)> {
    let mut latches: Vec<Node> = cfg
        .preds(h)
        .iter()
        .copied()
        .filter(|&p| dom.dominates(h, p))
        .collect();
    if latches.is_empty() {
        return None;
    }
    latches.sort();
    latches.dedup();
    let mut body = vec![false; cfg.num_blocks()];
    body[h.index()] = true;
    let mut stack = latches.clone();
    while let Some(b) = stack.pop() {
        if body[b.index()] {
            continue;
        }
        body[b.index()] = true;
        stack.extend(cfg.preds(b).iter().filter(|p| cfg.is_reachable(**p)));
    }
    let blocks = (0..cfg.num_blocks() as u32)
        .map(Node)
        .filter(|b| body[b.index()])
        .collect();
    Some((latches, blocks))
}

fn check_dominators(s: &[Vec<Node>]) {
    let cfg = Cfg::new(s).unwrap();
    let fast = DomTree::compute(&cfg);
    let slow = DomTree::compute_reference(&cfg);
    let naive = naive_dominance(&cfg);
    let n = cfg.num_blocks();
    for b in (0..n as u32).map(Node) {
        assert_eq!(fast.idom(b), slow.idom(b), "idom of {b:?}");
        assert_eq!(fast.depth(b), slow.depth(b));
        assert_eq!(fast.children(b), slow.children(b));
        assert_eq!(fast.is_reachable(b), cfg.is_reachable(b));
        for a in (0..n as u32).map(Node) {
            assert_eq!(
                fast.dominates(a, b),
                naive[a.index()][b.index()],
                "{a:?} dom {b:?}"
            );
        }
    }
    assert_eq!(fast.preorder(), slow.preorder());
    assert_eq!(fast.preorder().len(), cfg.rpo().len());
}

fn check_loops(s: &[Vec<Node>]) {
    let cfg = Cfg::new(s).unwrap();
    let dom = DomTree::compute(&cfg);
    let loops = Loops::compute(&cfg, &dom);
    let n = cfg.num_blocks();

    let mut expected: Vec<(Node, Vec<Node>, Vec<Node>)> = Vec::new();
    for h in (0..n as u32).map(Node) {
        if let Some((latches, body)) = naive_loop(&cfg, &dom, h) {
            expected.push((h, latches, body));
        }
    }
    assert_eq!(loops.len(), expected.len());
    let ids: Vec<LoopId> = loops.loops().collect();
    // Ids ordered by header RPO; outer before inner.
    for w in ids.windows(2) {
        assert!(cfg.rpo_index(loops.header(w[0])) < cfg.rpo_index(loops.header(w[1])));
    }
    for (h, latches, body) in &expected {
        let l = loops.loop_with_header(*h).expect("loop for header");
        assert!(loops.is_header(*h));
        assert_eq!(loops.header(l), *h);
        assert_eq!(loops.latches(l), latches.as_slice());
        let mut got = loops.blocks(l).to_vec();
        got.sort();
        assert_eq!(&got, body, "body of loop at {h:?}");
        assert_eq!(loops.num_blocks(l), body.len());
        for &b in body {
            assert!(dom.dominates(*h, b), "header {h:?} must dominate {b:?}");
        }
        for b in (0..n as u32 + 2).map(Node) {
            assert_eq!(loops.contains(l, b), body.contains(&b));
        }
        // Parent: smallest other loop whose body contains this header.
        let parent = expected
            .iter()
            .filter(|(h2, _, b2)| h2 != h && b2.contains(h))
            .min_by_key(|(_, _, b2)| b2.len())
            .map(|(h2, _, _)| *h2);
        assert_eq!(loops.parent(l).map(|p| loops.header(p)), parent);
        let depth = expected.iter().filter(|(_, _, b2)| b2.contains(h)).count() as u32;
        assert_eq!(loops.depth(l), depth);
        if let Some(p) = loops.parent(l) {
            assert!(p < l);
            assert!(loops.children(p).contains(&l));
        }
        let own = loops.own_blocks(l);
        assert!(own.windows(2).all(|w| w[0] < w[1]));
        assert!(own.iter().all(|&b| loops.loop_of(b) == Some(l)));
    }
    for b in (0..n as u32).map(Node) {
        let inner = expected
            .iter()
            .filter(|(_, _, body)| body.contains(&b))
            .min_by_key(|(_, _, body)| body.len())
            .map(|(h, _, _)| *h);
        assert_eq!(loops.loop_of(b).map(|l| loops.header(l)), inner);
        let depth = expected
            .iter()
            .filter(|(_, _, body)| body.contains(&b))
            .count() as u32;
        assert_eq!(loops.loop_depth(b), depth);
    }
}

fn check_cycles(s: &[Vec<Node>]) {
    let cfg = Cfg::new(s).unwrap();
    let dom = DomTree::compute(&cfg);
    let cyc = IrreducibleCycles::compute(&cfg, &dom);
    let n = cfg.num_blocks();
    // Transitive closure of forward edges among reachable blocks.
    let mut reach = vec![vec![false; n]; n];
    for u in 0..n {
        if !cfg.is_reachable(Node(u as u32)) {
            continue;
        }
        let mut stack = vec![u];
        while let Some(v) = stack.pop() {
            for &w in cfg.succs(Node(v as u32)) {
                if !dom.dominates(w, Node(v as u32)) && !reach[u][w.index()] {
                    reach[u][w.index()] = true;
                    stack.push(w.index());
                }
            }
        }
    }
    let mut expected: Vec<Vec<Node>> = Vec::new();
    let mut done = vec![false; n];
    for u in 0..n {
        if done[u] || !cfg.is_reachable(Node(u as u32)) {
            continue;
        }
        let comp: Vec<Node> = (0..n)
            .filter(|&v| v == u || (reach[u][v] && reach[v][u]))
            .map(|v| Node(v as u32))
            .collect();
        for b in &comp {
            done[b.index()] = true;
        }
        if comp.len() > 1 {
            expected.push(comp);
        }
    }
    assert_eq!(cyc.cycles(), expected.as_slice());
    assert_eq!(cyc.is_empty(), expected.is_empty());
    for (i, c) in expected.iter().enumerate() {
        for &b in c {
            assert_eq!(cyc.cycle_of(b), Some(i));
        }
        let entries = cyc.entries(i);
        assert!(entries.len() >= 2, "irreducible cycle with < 2 entries");
        for &b in c {
            let outside = cfg
                .preds(b)
                .iter()
                .any(|&p| cfg.is_reachable(p) && !c.contains(&p) && !dom.dominates(b, p));
            assert_eq!(entries.contains(&b), outside);
        }
    }
    // Reducible iff no cycle: all loops found by the natural-loop analysis then cover
    // every cycle of the graph, i.e. removing back edges leaves a DAG.
    let has_cycle_without_back_edges = (0..n).any(|u| reach[u][u]);
    assert_eq!(!cyc.is_empty(), has_cycle_without_back_edges);
}

/// Spec of one construct for the naive model.
struct Spec {
    kind: ConstructKind,
    header: Node,
    merge: Node,
    rank: u8,
}

fn naive_specs(infos: &[MergeInfo]) -> Vec<Spec> {
    let mut v = Vec::new();
    for info in infos {
        match info {
            MergeInfo::Selection {
                header,
                merge,
                case_targets,
            } => {
                v.push(Spec {
                    kind: ConstructKind::Selection,
                    header: *header,
                    merge: *merge,
                    rank: 4,
                });
                let mut seen = Vec::new();
                for &t in case_targets {
                    if t != *merge && !seen.contains(&t) {
                        seen.push(t);
                        v.push(Spec {
                            kind: ConstructKind::Case,
                            header: t,
                            merge: *merge,
                            rank: 0,
                        });
                    }
                }
            }
            MergeInfo::Loop {
                header,
                merge,
                continue_target,
            } => {
                v.push(Spec {
                    kind: ConstructKind::Loop,
                    header: *header,
                    merge: *merge,
                    rank: 2,
                });
                let rank = if continue_target == header { 3 } else { 1 };
                v.push(Spec {
                    kind: ConstructKind::Continue,
                    header: *continue_target,
                    merge: *merge,
                    rank,
                });
            }
        }
    }
    v
}

/// Raw random choices for one merge info: (is loop, mode, header, merge, continue
/// target, case targets); mapped onto blocks by [`check_constructs`].
type RawInfo = (bool, u8, usize, usize, usize, Vec<usize>);

fn check_constructs(s: &[Vec<Node>], raw: &[RawInfo]) {
    let cfg = Cfg::new(s).unwrap();
    let dom = DomTree::compute(&cfg);
    let n = cfg.num_blocks();
    // Turn raw choices into merge infos; merges often inside the header's subtree.
    let pick = |i: usize| Node((i % (n + 2)) as u32);
    let infos: Vec<MergeInfo> = raw
        .iter()
        .map(|(is_loop, mode, h, m, c, cases)| {
            let header = pick(*h);
            let sub = dom.subtree(header);
            let inside = |i: usize| {
                if sub.is_empty() {
                    pick(i)
                } else {
                    sub[i % sub.len()]
                }
            };
            let merge = if mode % 3 != 0 { inside(*m) } else { pick(*m) };
            if *is_loop {
                let continue_target = match mode % 4 {
                    0 => header,
                    1 => pick(*c),
                    _ => inside(*c),
                };
                MergeInfo::Loop {
                    header,
                    merge,
                    continue_target,
                }
            } else {
                let case_targets = cases
                    .iter()
                    .map(|&t| if mode % 2 == 0 { pick(t) } else { inside(t) })
                    .collect();
                MergeInfo::Selection {
                    header,
                    merge,
                    case_targets,
                }
            }
        })
        .collect();
    let cons = Constructs::compute(&cfg, &dom, &infos);
    let specs = naive_specs(&infos);
    assert_eq!(cons.len(), specs.len());
    for (i, sp) in specs.iter().enumerate() {
        let c = cons.construct(ConstructId(i as u32));
        assert_eq!((c.kind, c.header, c.merge), (sp.kind, sp.header, sp.merge));
    }
    let mut seen = 0;
    for i in 0..infos.len() {
        for id in cons.from_merge_info(i) {
            assert_eq!(id.index(), seen);
            seen += 1;
        }
    }
    assert_eq!(seen, specs.len());

    let contains =
        |i: usize, b: Node| dom.dominates(specs[i].header, b) && !dom.dominates(specs[i].merge, b);
    let key = |i: usize| (dom.depth(specs[i].header), specs[i].rank, i);
    let best = |b: Node, below: Option<usize>, only_loops: bool| -> Option<ConstructId> {
        (0..specs.len())
            .filter(|&i| contains(i, b))
            .filter(|&i| below.is_none_or(|j| key(i) < key(j)))
            .filter(|&i| !only_loops || specs[i].kind == ConstructKind::Loop)
            .max_by_key(|&i| key(i))
            .map(|i| ConstructId(i as u32))
    };
    for b in (0..n as u32 + 2).map(Node) {
        assert_eq!(
            cons.innermost(b),
            best(b, None, false),
            "innermost of {b:?}"
        );
        assert_eq!(
            cons.innermost_loop(b),
            best(b, None, true),
            "innermost loop of {b:?}"
        );
        for i in 0..specs.len() {
            assert_eq!(cons.contains(ConstructId(i as u32), b), contains(i, b));
        }
    }
    for i in 0..specs.len() {
        let id = ConstructId(i as u32);
        let parent = if dom.is_reachable(specs[i].header) {
            best(specs[i].header, Some(i), false)
        } else {
            None
        };
        assert_eq!(cons.construct(id).parent, parent, "parent of {i}");
        let mut lp = parent;
        while let Some(p) = lp {
            if specs[p.index()].kind == ConstructKind::Loop {
                break;
            }
            lp = cons.construct(p).parent;
        }
        assert_eq!(cons.loop_parent(id), lp);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn dominators_match_reference_and_naive(s in arb_graph()) {
        check_dominators(&s);
    }

    #[test]
    fn dominators_on_reducible(s in arb_reducible()) {
        check_dominators(&s);
    }

    #[test]
    fn loops_match_naive_on_reducible(s in arb_reducible()) {
        check_loops(&s);
        let cfg = Cfg::new(&s).unwrap();
        let dom = DomTree::compute(&cfg);
        prop_assert!(IrreducibleCycles::compute(&cfg, &dom).is_empty());
    }

    #[test]
    fn loops_match_naive_on_any_graph(s in arb_graph()) {
        check_loops(&s);
    }

    #[test]
    fn cycles_match_naive(s in arb_graph()) {
        check_cycles(&s);
    }

    /// `Cfg::from_csr` of the flattened lists is `Cfg::new` of the lists: the same
    /// graph, or the same error (some successors here are out of range).
    #[test]
    fn csr_graph_is_the_listed_graph(
        s in (1usize..=40).prop_flat_map(|n| prop::collection::vec(
            prop::collection::vec((0..n as u32 + 2).prop_map(Node), 0..=3), n)),
    ) {
        let mut off = vec![0u32];
        let mut flat = Vec::new();
        for l in &s {
            flat.extend_from_slice(l);
            off.push(flat.len() as u32);
        }
        match (Cfg::new(&s), Cfg::from_csr(off, flat)) {
            (Ok(a), Ok(b)) => {
                prop_assert_eq!(a.rpo(), b.rpo());
                for i in 0..s.len() as u32 + 2 {
                    let v = Node(i);
                    prop_assert_eq!(a.succs(v), b.succs(v));
                    prop_assert_eq!(a.preds(v), b.preds(v));
                    prop_assert_eq!(a.rpo_index(v), b.rpo_index(v));
                }
            }
            (a, b) => prop_assert_eq!(a.err(), b.err()),
        }
    }

    #[test]
    fn constructs_match_naive(
        s in prop_oneof![arb_graph(), arb_reducible()],
        raw in prop::collection::vec(
            (any::<bool>(), any::<u8>(), 0usize..64, any::<usize>(), any::<usize>(),
             prop::collection::vec(any::<usize>(), 0..4)),
            0..8),
    ) {
        check_constructs(&s, &raw);
    }
}

// ---------------------------------------------------------------------------------
// Large inputs: must not overflow the stack (no timing assertions).

fn all_analyses(
    s: &[Vec<Node>],
    infos: &[MergeInfo],
) -> (Cfg, DomTree, Loops, IrreducibleCycles, Constructs) {
    let cfg = Cfg::new(s).unwrap();
    let dom = DomTree::compute(&cfg);
    let loops = Loops::compute(&cfg, &dom);
    let cycles = IrreducibleCycles::compute(&cfg, &dom);
    let cons = Constructs::compute(&cfg, &dom, infos);
    (cfg, dom, loops, cycles, cons)
}

#[test]
fn long_chain() {
    const N: u32 = 200_000;
    let s: Vec<Vec<Node>> = (0..N)
        .map(|i| if i + 1 < N { vec![Node(i + 1)] } else { vec![] })
        .collect();
    let (cfg, dom, loops, cycles, _) = all_analyses(&s, &[]);
    assert_eq!(cfg.rpo().len(), N as usize);
    assert_eq!(dom.depth(Node(N - 1)), Some(N - 1));
    assert!(dom.dominates(Node(0), Node(N - 1)));
    let slow = DomTree::compute_reference(&cfg);
    assert_eq!(slow.idom(Node(N - 1)), Some(Node(N - 2)));
    assert!(loops.is_empty());
    assert!(cycles.is_empty());
}

#[test]
fn deep_loop_nest() {
    // h_i -> h_{i+1}; h_{K-1} -> body -> c_{K-1}; c_i -> h_i (back edge), c_i -> m_i;
    // m_i -> c_{i-1}; m_0 -> exit.
    const K: u32 = 100_000;
    let h = |i: u32| Node(i);
    let c = |i: u32| Node(K + i);
    let m = |i: u32| Node(2 * K + i);
    let body = Node(3 * K);
    let exit = Node(3 * K + 1);
    let mut s: Vec<Vec<Node>> = vec![Vec::new(); 3 * K as usize + 2];
    let mut infos = Vec::new();
    for i in 0..K {
        s[h(i).index()].push(if i + 1 < K { h(i + 1) } else { body });
        s[c(i).index()] = vec![h(i), m(i)];
        s[m(i).index()].push(if i > 0 { c(i - 1) } else { exit });
        infos.push(MergeInfo::Loop {
            header: h(i),
            merge: m(i),
            continue_target: c(i),
        });
    }
    s[body.index()].push(c(K - 1));
    let (_, dom, loops, cycles, cons) = all_analyses(&s, &infos);
    assert!(cycles.is_empty());
    assert_eq!(loops.len(), K as usize);
    let inner = loops.loop_of(body).unwrap();
    assert_eq!(loops.depth(inner), K);
    assert_eq!(loops.header(inner), h(K - 1));
    let outer = loops.loop_with_header(h(0)).unwrap();
    assert_eq!(loops.num_blocks(outer), 3 * K as usize);
    assert!(loops.contains(outer, body));
    assert!(dom.depth(exit).unwrap() > 2 * K);

    let innermost_loop = ConstructId(2 * (K - 1));
    assert_eq!(cons.innermost_loop(body), Some(innermost_loop));
    assert_eq!(cons.construct(innermost_loop).header, h(K - 1));
    // The continue target c_i is in loop i; its merge m_i is in loop i-1 only.
    assert_eq!(cons.innermost(c(5)), Some(ConstructId(2 * 5 + 1)));
    assert_eq!(cons.innermost_loop(c(5)), Some(ConstructId(2 * 5)));
    assert_eq!(cons.innermost_loop(m(5)), Some(ConstructId(2 * 4)));
    assert_eq!(cons.innermost_loop(m(0)), None);
    assert_eq!(cons.innermost(exit), None);
    assert_eq!(
        cons.loop_parent(innermost_loop),
        Some(ConstructId(2 * (K - 2)))
    );
    assert_eq!(
        cons.loop_parent(ConstructId(2 * 5 + 1)),
        Some(ConstructId(2 * 5))
    );
}

#[test]
fn big_irreducible_ring() {
    // entry -> a_0 and a_{N/2}; ring a_i -> a_{i+1 mod N}.
    const N: u32 = 200_000;
    let mut s: Vec<Vec<Node>> = vec![vec![Node(1), Node(1 + N / 2)]];
    for i in 0..N {
        s.push(vec![Node(1 + (i + 1) % N)]);
    }
    let (_, _, loops, cycles, _) = all_analyses(&s, &[]);
    assert!(loops.is_empty());
    assert_eq!(cycles.len(), 1);
    assert_eq!(cycles.cycles()[0].len(), N as usize);
    assert_eq!(cycles.entries(0), vec![Node(1), Node(1 + N / 2)]);
}
