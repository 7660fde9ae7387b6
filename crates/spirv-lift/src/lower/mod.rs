//! Lowering: SPIR-V semantics → the LLVM model.
//!
//! [`lower_module`] reads the module-level facts (memory model, names, decorations,
//! entry points), lowers types, constants and global variables in module order
//! (`types`, `consts`, `globals`), declares every function and settles the entry
//! points, then lowers each function body (`func`, with one sub-module per instruction
//! class) and places its convergence tokens. Bodies are taken (or decoded again) one at a
//! time and handed to a sink once final, so neither module need be whole in memory.

mod access;
mod amdgcn;
mod arith;
mod atomics;
mod barriers;
mod builder;
pub(crate) mod builtins;
mod composite;
mod consts;
mod convert;
mod coop;
mod dispatch;
pub mod extinst;
mod func;
mod globals;
mod handles;
mod host;
mod layout;
pub mod mangle;
mod matrix;
mod memory;
mod semantics;
mod tags;
mod types;
mod values;

use crate::error::{Error, ErrorKind};
use crate::llvm::{self, CallConv, ConstId, FuncId, TypeId, Value};
use crate::progress::ReadHint;
pub use crate::spirv::ExtSet;
use crate::spirv::{self, Inst, Op, Operand, SpvId};
use crate::{Options, Target};
use foldhash::{HashMap, HashMapExt, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
pub use types::{SpvTy, SpvTypeId, named_tags, sync_as_name};

pub(crate) use values::ValInfo;

/// An entry point.
#[derive(Clone, Debug)]
pub(crate) struct EntryPoint {
    pub model: spirv_headers::ExecutionModel,
    pub func: SpvId,
    pub name: String,
}

// The `spirv` crate's enums, under a name that does not clash with our `spirv` module.
use ::spirv as spirv_headers;

/// Module-wide lowering state.
pub(crate) struct Ctx<'a> {
    pub spv: &'a spirv::Module,
    pub opts: &'a Options,
    pub m: llvm::Module,
    pub types: types::TypeTable,
    pub values: values::Values,
    pub funcs: values::Funcs,
    pub names: spirv::Names,
    pub decorations: spirv::Decorations,
    pub entry_points: Vec<EntryPoint>,
    /// `OpExecutionMode[Id]` instructions by the function they apply to.
    pub exec_modes: HashMap<SpvId, Vec<&'a Inst>>,
    /// The first entry point of each function (index into `entry_points`).
    pub entry_of: HashMap<SpvId, usize>,
    pub vulkan_mm: bool,
    pub kernel: bool,
    /// Whether the module declares a cooperative-matrix type (`coop.rs`): only then can
    /// an instruction compute on one.
    pub has_coop_matrices: bool,
    pub addressing: spirv_headers::AddressingModel,
    /// Function ids that are called by `OpFunctionCall` somewhere.
    pub called: spirv::IdSet,
    /// Built-in Input variables computed per function on amdgcn: (built-in, pointer type,
    /// pointee type).
    pub amd_builtins:
        std::collections::BTreeMap<SpvId, (spirv_headers::BuiltIn, SpvTypeId, SpvTypeId)>,
    /// Built-in variables on the host: (global, built-in, value type), filled by
    /// `spirv_lift.set_invocation` (lower/host.rs).
    pub host_builtins: Vec<(crate::llvm::GlobalId, spirv_headers::BuiltIn, TypeId)>,
    /// Private variables with initializers on the host: (global, initializer), stored
    /// again by `spirv_lift.set_invocation` (lower/host.rs).
    pub host_privates: Vec<(crate::llvm::GlobalId, ConstId)>,
    /// With `WorkgroupMemoryExplicitLayoutKHR`, the Block-decorated Workgroup variables
    /// all alias one allocation (SPV_KHR_workgroup_memory_explicit_layout): `Some(None)`
    /// until the first is lowered, then that global and the largest block size.
    pub workgroup_blocks: Option<Option<(crate::llvm::GlobalId, u64)>>,
    /// Whether one of those blocks has an initializer (a null constant: the allocation
    /// they share then starts zeroed, each work-group on the host).
    pub workgroup_blocks_zeroed: bool,
    /// The `!mmra` node of each tag set attached so far ([`Ctx::mmra_node`]): the same
    /// few sets recur on every memory access.
    pub mmra_nodes: foldhash::HashMap<crate::mmra::TagSet, crate::llvm::MdId>,
    /// The tags of a plain access (`FnCtx::access_tags`) by (non-private, the pointer's
    /// concrete address space), built once each.
    pub access_sets: foldhash::HashMap<(bool, Option<u32>), std::rc::Rc<crate::mmra::TagSet>>,
    /// Workgroup variables with initializers on the host: (global, initializer), stored
    /// again by `spirv_lift.begin_group` before each work-group (lower/host.rs).
    pub host_workgroup_inits: Vec<(crate::llvm::GlobalId, ConstId)>,
    /// Entry points on the host: (name, entry function, fixed local size), for the
    /// trampolines and local-size constants (lower/host.rs).
    pub host_entries: Vec<(String, crate::llvm::FuncId, Option<[u32; 3]>)>,
    /// SPIR-V function ids that are convergent (contain or call a convergent operation).
    pub convergent_fns: spirv::IdSet,
    /// What each specialization constant's value depends on (empty for other ids).
    pub spec_deps: spirv::IdTable<SpecDeps>,
    /// Entry-point names reserved for the entry functions (or their wrappers).
    pub reserved: HashSet<String>,
    /// `OpConstantSampler`s: (addressing mode, normalized, filter mode).
    pub const_samplers: std::collections::BTreeMap<SpvId, (u32, u32, u32)>,
    /// Constant cooperative matrices (`coop.rs`): their type and their one component.
    pub coop_constants: std::collections::BTreeMap<SpvId, (spirv::SpvTypeId, SpvId)>,
    /// Specialization constants known only at run time, as the instructions computing
    /// them, in module order (`coop.rs`).
    pub runtime_constants: Vec<Inst>,
    /// Descriptor and push-constant variables passed as arguments (amdgcn; `abi.rs`).
    pub resources: amdgcn::Resources,
    /// Explicit layouts of laid-out types (`layout.rs`).
    pub layouts: layout::Layouts,
    /// Block variables written as resource handles (workarounds; `handles.rs`).
    pub buffer_handles: std::collections::BTreeMap<SpvId, handles::BufferHandle>,
}

/// Receives the LLVM module while [`lower_module_into`] builds it, so that it can be
/// printed (and its function bodies freed) before the whole module exists.
pub(crate) trait Sink {
    /// The module-level part is final: struct types, globals, the signatures and
    /// attributes of every SPIR-V function, entry-point wrappers.
    fn prologue(&mut self, _m: &llvm::Module) {}
    /// The functions before index `upto` are final (bodies lowered, tokens placed).
    fn functions(&mut self, _m: &mut llvm::Module, _upto: usize) {}
    /// Function `fid`'s body is lowered and its tokens placed; `regions` says which
    /// convergence region owns each of its blocks (for pictures of the CFG).
    fn regions(
        &mut self,
        _m: &llvm::Module,
        _fid: FuncId,
        _regions: &crate::convergence::place::Regions,
    ) {
    }
}

/// A sink that keeps the whole module.
pub(crate) struct Keep;
impl Sink for Keep {}

/// Lowers a loaded, checked SPIR-V module (loaded with [`spirv::load`]).
#[cfg(any(test, feature = "fuzzing"))]
pub fn lower_module(spv: spirv::Module, opts: &Options) -> Result<llvm::Module, Error> {
    lower_module_into(spv, &[], Checks::Done, ReadHint::default(), opts, &mut Keep)
}

/// What is left of the checks of the bodies when the lowering starts.
pub(crate) enum Checks {
    /// They all ran (a module loaded with its bodies checked: the whole-module path the
    /// tests and fuzz targets compare with).
    #[cfg(any(test, feature = "fuzzing"))]
    Done,
    /// They run on the lowering's thread, each body checked just before it is lowered
    /// (one thread, or a small module).
    Inline(spirv::BodyChecks),
    /// They run on a thread of their own beside the lowering (`Options::threads`).
    Thread(spirv::BodyChecks),
}

/// Lowers a loaded SPIR-V module, handing each function to `sink` as soon as it is final.
/// Each SPIR-V function body is taken out of the module (or decoded again from `words`
/// after a streaming load) just before it is lowered and freed after, so with a streaming
/// load and a streaming sink neither module is ever whole in memory. `read` is told how
/// far the checks and the lowering have read `words`.
///
/// Unless [`Checks::Done`], the bodies are still to be checked, in module order, each
/// before it is lowered: on this thread ([`Checks::Inline`]) or on one of their own
/// ([`Checks::Thread`]). A check's error is returned whatever the lowering did, as when
/// every check runs first. If the system refuses the thread, the checks run on this one.
pub(crate) fn lower_module_into(
    spv: spirv::Module,
    words: &[u32],
    checks: Checks,
    read: ReadHint<'_>,
    opts: &Options,
    sink: &mut dyn Sink,
) -> Result<llvm::Module, Error> {
    // The load read every word; the checks and the lowering read each body again when
    // they come to it.
    read.reader().read_upto(words.len());
    let checks = match checks {
        #[cfg(any(test, feature = "fuzzing"))]
        Checks::Done => return lower_checked(spv, words, Pending::Done, read, opts, sink),
        Checks::Inline(checks) => return lower_inline(spv, words, checks, read, opts, sink),
        Checks::Thread(checks) => checks,
    };
    let reader = spv.body_reader();
    // Taken by the lowering once the thread runs.
    let mut module = Some(spv);
    let handover = Handover::default();
    let checks = std::thread::scope(|scope| {
        // Not bounded by count: the checks are faster than the lowering, and a bounded
        // channel would wake the checks' thread once per function. The bodies they send
        // are bounded by their weight instead ([`Handover`]), a wake per many functions.
        let (tx, rx) = std::sync::mpsc::channel();
        // The checks go to the thread once it runs, so that they are still here if it
        // cannot be started.
        let (give, take) = std::sync::mpsc::channel::<spirv::BodyChecks>();
        let handover = &handover;
        let spawned = std::thread::Builder::new()
            .name("spirv-lift checks".into())
            .spawn_scoped(scope, move || {
                let Ok(mut checks) = take.recv() else { return };
                let _ = handover.checker.set(std::thread::current());
                // Functions that passed since the last message, none with analyses, and
                // their instructions: sent together, up to a small amount of work, so
                // that a module of many small functions does not queue a message each
                // while the lowering catches up.
                let (mut passed, mut insts) = (0u32, 0usize);
                // Reports `n` functions passed; false once the lowering has stopped.
                let send_passed = |n: u32| n == 0 || tx.send(Ok(Checked::Passed(n))).is_ok();
                let mut progress = read.reader();
                for i in 0..reader.len() {
                    let checked = reader.decode(i, words).and_then(|body| match body {
                        Some(body) => {
                            insts += body.blocks.iter().map(|b| b.insts.len()).sum::<usize>();
                            // The lowering decodes the body again itself: a body decoded
                            // here and read there cost the lowering's thread about as much
                            // time as the checks take (the instructions cross from one
                            // core's cache to the other's, and are freed across threads).
                            // The CFG analyses of a large one are worth handing over
                            // (`BodyChecks::function` keeps only those).
                            Ok(checks.function(&body)?.map(Checked::Analyses))
                        }
                        None => {
                            checks.declaration();
                            Ok(None)
                        }
                    });
                    if let Some(end) = reader.end(i) {
                        progress.read_upto(end);
                    }
                    let message = match checked {
                        Ok(None) => {
                            passed += 1;
                            if passed < PASSED_AT_ONCE && insts < PASSED_INSTS_AT_ONCE {
                                continue;
                            }
                            None
                        }
                        Ok(Some(checked)) => Some(Ok(checked)),
                        Err(e) => Some(Err(Box::new(e))),
                    };
                    if !send_passed(passed) {
                        return;
                    }
                    (passed, insts) = (0, 0);
                    let Some(message) = message else { continue };
                    if let Ok(Checked::Analyses(a)) = &message {
                        handover.send(weight(a));
                    }
                    let failed = message.is_err();
                    if tx.send(message).is_err() || failed {
                        return;
                    }
                }
                if !send_passed(passed) {
                    return;
                }
                let _ = tx.send(
                    checks
                        .finish(words)
                        .map(|()| Checked::Finished)
                        .map_err(Box::new),
                );
            });
        let Ok(checker) = spawned else {
            return Err(Box::new(checks));
        };
        if give.send(checks).is_err() {
            // The thread ended before it took the checks: only a panic does that.
            return Ok(join_checker(checker).and_then(|()| Err(spirv::not_kept(0))));
        }
        let spv = module.take().expect("the module is lowered once");
        // The checks' thread waits for no more bodies once the lowering ends, however it
        // ends (a panic included: the scope joins the thread).
        let stop = StopOnDrop(handover);
        let thread = Pending::Thread(&rx, handover);
        let lowered = lower_checked(spv, words, thread, read, opts, sink);
        drop(stop);
        // A check's error received by the lowering is what it returned; any other is
        // still in the channel, and comes before the lowering's (the checks go on to the
        // end of the module while the channel is open).
        let checked = rx.iter().find_map(Result::err);
        drop(rx);
        Ok(join_checker(checker).and_then(|()| match checked {
            Some(e) => Err(*e),
            None => lowered,
        }))
    });
    match checks {
        Ok(result) => result,
        Err(checks) => {
            let spv = module.expect("the module is not lowered without the thread");
            lower_inline(spv, words, *checks, read, opts, sink)
        }
    }
}

/// [`lower_module_into`] with the checks of each body run just before it is lowered, on
/// this thread: a check's error is the first one (the checks still go on to the end of
/// the module after a lowering error, as when every check runs first).
fn lower_inline(
    spv: spirv::Module,
    words: &[u32],
    checks: spirv::BodyChecks,
    read: ReadHint<'_>,
    opts: &Options,
    sink: &mut dyn Sink,
) -> Result<llvm::Module, Error> {
    let mut inline = InlineChecks {
        reader: spv.body_reader(),
        checks,
        next: 0,
        failed: false,
    };
    let lowered = lower_checked(spv, words, Pending::Inline(&mut inline), read, opts, sink);
    if inline.failed {
        return lowered;
    }
    inline.rest(words)?;
    lowered
}

/// The checks of the bodies on the lowering's thread ([`Checks::Inline`]).
struct InlineChecks {
    reader: spirv::BodyReader,
    checks: spirv::BodyChecks,
    /// The next function to check.
    next: usize,
    /// A check failed: its error is the translation's.
    failed: bool,
}

/// A function's body as the checks decoded it, with its CFG analyses.
type CheckedBody = (spirv::Function, Option<crate::analysis::FunctionAnalyses>);

impl InlineChecks {
    /// Decodes and checks the next function's body: the body with its CFG analyses, or
    /// `None` for a declaration.
    fn next(&mut self, words: &[u32]) -> Result<Option<CheckedBody>, Error> {
        let i = self.next;
        self.next += 1;
        let checked = self.reader.decode(i, words).and_then(|body| match body {
            Some(body) => Ok(Some((self.checks.function_analyses(&body)?, body))),
            None => {
                self.checks.declaration();
                Ok(None)
            }
        });
        self.failed |= checked.is_err();
        checked.map(|c| c.map(|(analyses, body)| (body, analyses)))
    }

    /// The checks the lowering did not reach (it failed or ended): the bodies left, then
    /// the entry points and the call graph.
    fn rest(mut self, words: &[u32]) -> Result<(), Error> {
        while self.next < self.reader.len() {
            self.next(words)?;
        }
        self.checks.finish(words)
    }
}

/// The largest body (in instructions) that the lowering takes as the checks on its own
/// thread decoded it ([`Checks::Inline`]): a larger one is decoded again a block at a time
/// (`BodySource::take`), so that it is never held whole beside what its lowering builds.
/// (Checks on a thread of their own hand over no body: the lowering decodes each.)
const HANDED_OVER_INSTS: usize = 1 << 14;

/// The checks of the bodies as [`lower_checked`] waits for them.
enum Pending<'a> {
    /// They all ran, and kept the analyses the lowering takes.
    #[cfg(any(test, feature = "fuzzing"))]
    Done,
    Thread(&'a CheckedRx, &'a Handover),
    Inline(&'a mut InlineChecks),
}

/// Waits for the checks' thread, and passes its panic on.
fn join_checker(checker: std::thread::ScopedJoinHandle<'_, ()>) -> Result<(), Error> {
    if let Err(panic) = checker.join() {
        std::panic::resume_unwind(panic);
    }
    Ok(())
}

/// What the checks' thread sends the lowering, in module order.
pub(crate) enum Checked {
    /// The next functions passed, and their CFG analyses were not kept.
    Passed(u32),
    /// The next function passed; its CFG analyses (a body of
    /// [`spirv::KEEP_ANALYSES`] blocks or more).
    Analyses(Box<crate::analysis::FunctionAnalyses>),
    /// Every body passed, then the checks that need them all.
    Finished,
}

/// The most functions the checks' thread reports in one message ([`Checked::Passed`]),
/// and the most instructions among them: 300,000 one-message-a-function small functions
/// queued 7 MB while the lowering caught up.
const PASSED_AT_ONCE: u32 = 64;
const PASSED_INSTS_AT_ONCE: usize = 4096;

/// The CFG analyses the checks' thread made and the lowering has not taken yet are
/// bounded: past [`Handover::HIGH`] (a weight: blocks, and a little per function) the
/// checks' thread waits until the lowering has taken all but [`Handover::LOW`]. The
/// checks run about three times as fast as the lowering, so without a bound the analyses
/// of every large function would wait in the channel beside what the lowering builds.
#[derive(Default)]
struct Handover {
    /// The weight of the analyses sent and not yet received.
    in_flight: AtomicUsize,
    /// The checks' thread is waiting (or about to) for the weight to fall to `LOW`.
    waiting: AtomicBool,
    /// The lowering ended: the checks' thread no longer waits.
    stopped: AtomicBool,
    /// The checks' thread, to wake.
    checker: std::sync::OnceLock<std::thread::Thread>,
}

impl Handover {
    /// About 100 KB of analyses (a unit of weight is about 100 bytes).
    const HIGH: usize = 1 << 10;
    const LOW: usize = Self::HIGH / 2;

    /// The checks' thread sends analyses of weight `w`, first waiting while more than
    /// [`Self::HIGH`] is in flight, unless the lowering ended (the checks then go on to
    /// the end of the module unbounded: their error comes first). Waiting only on what was
    /// sent before (which the lowering receives) never waits for itself.
    fn send(&self, w: usize) {
        if self.in_flight.load(SeqCst) > Self::HIGH {
            loop {
                self.waiting.store(true, SeqCst);
                if self.stopped.load(SeqCst) || self.in_flight.load(SeqCst) <= Self::LOW {
                    break;
                }
                std::thread::park();
            }
            self.waiting.store(false, SeqCst);
        }
        self.in_flight.fetch_add(w, SeqCst);
    }

    /// The lowering received analyses of weight `w`: wakes the checks' thread if it waits
    /// and little is left in flight. (Either the lowering sees `waiting` set, or the
    /// checks' thread, setting it before it reads the weight, sees the weight fallen.)
    fn received(&self, w: usize) {
        let left = self.in_flight.fetch_sub(w, SeqCst).saturating_sub(w);
        if left <= Self::LOW && self.waiting.swap(false, SeqCst) {
            self.wake();
        }
    }

    fn wake(&self) {
        if let Some(checker) = self.checker.get() {
            checker.unpark();
        }
    }
}

/// Stops [`Handover`]'s waits when dropped.
struct StopOnDrop<'a>(&'a Handover);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stopped.store(true, SeqCst);
        self.0.wake();
    }
}

/// The weight of a function's CFG analyses for [`Handover`]: about 100 bytes a block.
fn weight(a: &crate::analysis::FunctionAnalyses) -> usize {
    a.cfg.num_blocks() + 16
}

/// From the checks running beside the lowering: [`Checked`] messages, or the first
/// error (16 bytes a message, the error boxed: the checks run ahead of the lowering, so
/// most messages wait in the channel).
type CheckedRx = std::sync::mpsc::Receiver<Result<Checked, Box<Error>>>;

/// Lowers a module whose bodies are checked ([`Pending::Done`]) or being checked, each
/// before it is lowered; `read` is told how far the lowering has read `words`.
fn lower_checked(
    mut spv: spirv::Module,
    words: &[u32],
    mut checks: Pending<'_>,
    read: ReadHint<'_>,
    opts: &Options,
    sink: &mut dyn Sink,
) -> Result<llvm::Module, Error> {
    let mut source = spv.take_functions();
    // The CFG analyses the checks kept, when they all ran first.
    #[cfg(any(test, feature = "fuzzing"))]
    let mut kept_analyses = std::mem::take(&mut spv.facts.analyses);
    let facts = std::mem::take(&mut spv.facts);
    let functions = &source.functions;
    // Set specialization constants are found by their SpecId decorations, read here.
    let spec_values = crate::spec::resolve(&spv, &opts.spec_constants)?;
    // Names and decorations were filed by target at load (spirv/annotations.rs).
    let names = std::mem::take(&mut spv.names);
    let decorations = std::mem::take(&mut spv.decorations);
    let mut cx = Ctx::new(&spv, functions, &facts, opts, &spec_values)?;
    cx.names = names;
    cx.decorations = decorations;
    // Every SPIR-V function, and room for the declarations of built-in functions.
    cx.m.reserve_functions(functions.len() + 64);
    cx.read_preamble(&facts)?;
    cx.m.triple = cx.triple();
    // The AMDGPU compute ABI and the host runtime (`spirv-lift run`) dispatch grids of
    // work-items: they have no vertices, fragments, rays or meshes to feed other stages.
    let target_name = match cx.opts.target {
        Target::Amdgcn => Some("amdgcn"),
        Target::Host => Some("host"),
        Target::Generic => None,
    };
    if let Some(target) = target_name {
        use spirv_headers::ExecutionModel as E;
        if let Some(ep) = cx
            .entry_points
            .iter()
            .find(|e| !matches!(e.model, E::GLCompute | E::Kernel))
        {
            return Err(Error::new(ErrorKind::UnsupportedForm(format!(
                "--target {target} translates compute shaders and kernels; entry point '{}' is a shader of execution model {:?}",
                ep.name, ep.model
            ))));
        }
    }
    if cx.opts.target == Target::Amdgcn {
        cx.m.datalayout = Some(AMDGCN_DATALAYOUT.to_string());
    }
    if cx.opts.target == Target::Host {
        cx.m.datalayout = Some(host::triple_and_layout().1.to_string());
    }
    for inst in &spv.globals {
        cx.lower_global_inst(inst)
            .map_err(|e| e.or_at(&inst.location()))?;
        if let Some(msg) = cx.m.take_invalid_const() {
            return Err(inst.invalid(msg));
        }
    }
    cx.finish_workgroup_blocks();
    cx.finish_resources(functions, &facts);
    cx.reserve_entry_names();
    for f in functions {
        cx.declare_function(f)
            .map_err(|e| e.or_at(&f.def.location()))?;
    }
    // Everything before this index exists now; what is added later (entry wrappers,
    // intrinsic declarations) is handed over at the end.
    let declared = cx.m.functions.len();
    // Entry-point attributes and wrappers depend only on declarations and execution
    // modes, so they are settled before any body: a sink may print a definition line
    // as soon as its body is done.
    cx.finish_entry_points()?;
    if cx.opts.target == Target::Host {
        let entries = std::mem::take(&mut cx.host_entries);
        cx.finish_host(&entries)?;
    }
    cx.m.kernels_first = cx.backend_workarounds();
    sink.prologue(&cx.m);
    // The LLVM function of each SPIR-V definition, and the smallest of those still to
    // come from each position on: functions before it are final.
    let fids = functions
        .iter()
        .map(|f| cx.funcs.get(f.id()).filter(|_| f.has_body()))
        .collect::<Vec<_>>();
    let mut pending_min = vec![declared; fids.len() + 1];
    for i in (0..fids.len()).rev() {
        pending_min[i] = fids[i].map_or(pending_min[i + 1], |fid| {
            pending_min[i + 1].min(fid.index())
        });
    }
    let mut lowered = vec![false; declared];
    let mut progress = read.reader();
    // Functions the checks' thread reported passed and not lowered yet.
    let mut passed = 0u32;
    for i in 0..fids.len() {
        let mut checked_body = None;
        let analyses = match &mut checks {
            Pending::Thread(..) if passed > 0 => {
                passed -= 1;
                None
            }
            Pending::Thread(rx, handover) => match rx.recv() {
                Ok(Ok(Checked::Passed(n))) if n > 0 => {
                    passed = n - 1;
                    None
                }
                Ok(Ok(Checked::Analyses(analyses))) => {
                    handover.received(weight(&analyses));
                    Some(*analyses)
                }
                Ok(Err(e)) => return Err(*e),
                // The checks ended before this body: only a panic of theirs does that
                // (the caller passes it on); their errors come as `Ok(Err(_))`.
                Ok(Ok(Checked::Passed(_) | Checked::Finished)) | Err(_) => {
                    return Err(spirv::not_kept(i));
                }
            },
            Pending::Inline(inline) => match inline.next(words)? {
                Some((body, analyses)) => {
                    checked_body = Some(body);
                    analyses
                }
                None => None,
            },
            #[cfg(any(test, feature = "fuzzing"))]
            Pending::Done => kept_analyses.get_mut(i).and_then(Option::take).map(|a| *a),
        };
        let Some(fid) = fids[i] else { continue };
        // With the CFG kept from the checks, terminators need not be decoded up front.
        let defer = match analyses {
            Some(_) => spirv::Defer::AllButMerges,
            None => spirv::Defer::BeforeTerminators,
        };
        // A body the checks decoded is lowered as it is, unless it is large.
        let small = |b: &spirv::Function| {
            let insts = b.blocks.iter().map(|block| block.insts.len());
            insts.sum::<usize>() <= HANDED_OVER_INSTS
        };
        let f = match checked_body {
            Some(body) if small(&body) => {
                source.release(i)?;
                body
            }
            large => {
                // Freed before the body is decoded again, not held through its lowering.
                drop(large);
                source.take(i, words, defer)?
            }
        };
        let regions = func::lower_function(&mut cx, f, source.decoder(words).as_ref(), analyses)?;
        if cx.opts.convergence {
            crate::convergence::place::place(&mut cx.m, fid, &regions);
            if cx.opts.target == Target::Amdgcn {
                amdgcn::shield_atomics(&mut cx.m, fid);
            }
        }
        sink.regions(&cx.m, fid, &regions);
        lowered[fid.index()] = true;
        sink.functions(&mut cx.m, pending_min[i + 1]);
        progress.read_upto(source.functions[i].span.1 as usize);
    }
    drop(source);
    if cx.opts.convergence {
        // Entry wrappers: one block, owned by the entry token.
        for i in 0..cx.m.functions.len() {
            let fid = FuncId(i as u32);
            if !lowered.get(i).copied().unwrap_or(false) && !cx.m.func(fid).is_declaration() {
                let flat = crate::convergence::place::Regions::flat(cx.m.func(fid).blocks.len());
                crate::convergence::place::place(&mut cx.m, fid, &flat);
            }
        }
    }
    Ok(cx.m)
}

/// A new local of `f` for the value of SPIR-V id `id`, named as [`Ctx::hint`] names it
/// (its `OpName`, else `_<id>`), without writing the hint text first.
pub(crate) fn id_local(
    names: &spirv::Names,
    f: &mut llvm::Function,
    id: SpvId,
    ty: llvm::TypeId,
) -> llvm::LocalId {
    match names.get(id) {
        Some(n) if !n.is_empty() => f.new_local(n, ty),
        _ => f.new_numbered_local(id.0, ty),
    }
}

/// Renames local `l` of `f` for the value of SPIR-V id `id`, as [`id_local`] names a new
/// one.
pub(crate) fn rename_id_local(
    names: &spirv::Names,
    f: &mut llvm::Function,
    l: llvm::LocalId,
    id: SpvId,
) {
    match names.get(id) {
        Some(n) if !n.is_empty() => f.rename_local(l, n),
        _ => f.rename_local_numbered(l, id.0),
    }
}

/// The AMDGPU data layout (LLVM 19's string; needed for `alloca addrspace(5)`).
const AMDGCN_DATALAYOUT: &str = "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9";

impl<'a> Ctx<'a> {
    fn new(
        spv: &'a spirv::Module,
        functions: &[spirv::Function],
        facts: &spirv::Facts,
        opts: &'a Options,
        spec_values: &crate::spec::Resolved,
    ) -> Result<Self, Error> {
        let header = spv.header;
        Ok(Ctx {
            spv,
            opts,
            m: llvm::Module::new(""),
            types: types::TypeTable::new(&spv.types),
            values: values::Values::new(&header),
            funcs: values::Funcs::new(functions.iter().map(spirv::Function::id)),
            names: Default::default(),
            decorations: Default::default(),
            entry_points: Vec::new(),
            exec_modes: HashMap::new(),
            entry_of: HashMap::new(),
            vulkan_mm: false,
            kernel: spv.module_facts.is_kernel(),
            has_coop_matrices: (0..spv.types.len())
                .any(|i| matches!(spv.types.at(i), Some(SpvTy::CoopMatrix { .. }))),
            addressing: spirv_headers::AddressingModel::Logical,
            called: header.id_set(),
            reserved: Default::default(),
            amd_builtins: Default::default(),
            host_builtins: Vec::new(),
            host_privates: Vec::new(),
            workgroup_blocks: None,
            workgroup_blocks_zeroed: false,
            mmra_nodes: Default::default(),
            access_sets: Default::default(),
            host_workgroup_inits: Vec::new(),
            host_entries: Vec::new(),
            buffer_handles: Default::default(),
            convergent_fns: convergent_functions(functions, facts, header),
            spec_deps: spec_dependencies(spv, spec_values),
            const_samplers: Default::default(),
            coop_constants: Default::default(),
            runtime_constants: Vec::new(),
            resources: Default::default(),
            layouts: Default::default(),
        })
    }

    fn read_preamble(&mut self, facts: &spirv::Facts) -> Result<(), Error> {
        let spv = self.spv;
        for inst in &spv.preamble {
            match inst.op {
                Op::Capability => {
                    if let Ok(Operand::Capability(
                        spirv_headers::Capability::WorkgroupMemoryExplicitLayoutKHR,
                    )) = inst.operand(0)
                    {
                        self.workgroup_blocks = Some(None);
                    }
                }
                Op::MemoryModel => {
                    if let Operand::AddressingModel(a) = inst.operand(0)? {
                        self.addressing = *a;
                    }
                    if let Operand::MemoryModel(mm) = inst.operand(1)? {
                        self.vulkan_mm = *mm == spirv_headers::MemoryModel::Vulkan;
                    }
                }
                Op::EntryPoint => {
                    let Operand::ExecutionModel(model) = inst.operand(0)? else {
                        return Err(inst.err("expected an execution model"));
                    };
                    let func = inst.id(1)?;
                    self.entry_of.entry(func).or_insert(self.entry_points.len());
                    self.entry_points.push(EntryPoint {
                        model: *model,
                        func,
                        name: inst.string(2)?.to_string(),
                    });
                }
                Op::ExecutionMode | Op::ExecutionModeId => {
                    if let Ok(func) = inst.id(0) {
                        self.exec_modes.entry(func).or_default().push(inst);
                    }
                }
                Op::MemberDecorate => {
                    if let Operand::Decoration(d) = inst.operand(2)? {
                        let lit = match inst.operands.get(3) {
                            Some(Operand::LiteralBit32(v)) => Some(*v),
                            _ => None,
                        };
                        self.layouts
                            .member_decoration(inst.type_id(0)?, inst.lit(1)?, *d, lit);
                    }
                }
                // Groups: their decorations are copied to the targets below.
                Op::DecorationGroup | Op::GroupDecorate | Op::GroupMemberDecorate => {}
                _ => {}
            }
        }
        self.decorations.apply_groups(&spv.preamble)?;
        for inst in spv
            .preamble
            .iter()
            .filter(|i| i.op == Op::GroupMemberDecorate)
        {
            let group = inst.id(0)?;
            let decos = self.decorations.of(group).to_vec();
            for pair in inst.operands[1..].chunks(2) {
                if let [Operand::IdRef(st), Operand::LiteralBit32(member)] = pair {
                    for spirv::Deco {
                        kind: d,
                        operands: ops,
                        ..
                    } in &decos
                    {
                        let lit = match ops.first() {
                            Some(Operand::LiteralBit32(v)) => Some(*v),
                            _ => None,
                        };
                        self.layouts
                            .member_decoration(SpvTypeId(*st), *member, *d, lit);
                    }
                }
            }
        }
        // A function serving several entry points is lowered once and wrapped per entry.
        let mut entries_per_func: HashMap<SpvId, u32> = HashMap::new();
        for ep in &self.entry_points {
            *entries_per_func.entry(ep.func).or_default() += 1;
        }
        for (f, n) in entries_per_func {
            if n > 1 {
                self.called.insert(f);
            }
        }
        for &callee in facts.calls.all() {
            self.called.insert(callee);
        }
        Ok(())
    }

    /// The target triple for this module and profile.
    fn triple(&self) -> String {
        use spirv_headers::AddressingModel as A;
        if self.opts.target == Target::Amdgcn {
            return "amdgcn-amd-amdhsa".into();
        }
        if self.opts.target == Target::Host {
            return host::triple_and_layout().0.into();
        }
        match self.addressing {
            A::Physical64 => "spirv64-unknown-unknown".into(),
            A::Physical32 => "spirv32-unknown-unknown".into(),
            _ => {
                let vk = match self.spv.header.version {
                    (1, 6) => "vulkan1.3",
                    (1, 5) => "vulkan1.2",
                    (1, 0) => "vulkan1.0",
                    _ => "vulkan1.1",
                };
                let mut stages: Vec<&str> = self
                    .entry_points
                    .iter()
                    .map(|e| stage_name(e.model))
                    .collect();
                stages.sort_unstable();
                stages.dedup();
                let env = if stages.len() == 1 {
                    stages[0]
                } else {
                    "library"
                };
                format!("spirv-unknown-{vk}-{env}")
            }
        }
    }

    /// The decorations on an id.
    /// Whether to write the forms LLVM 22's SPIR-V backend handles
    /// ([`Options::spirv_backend_workarounds`], generic target only).
    pub fn backend_workarounds(&self) -> bool {
        self.opts.backend_workarounds && self.opts.target == Target::Generic
    }

    /// The decorations on an id (of a value or a type).
    pub fn decos(&self, id: impl Into<SpvId>) -> &[spirv::Deco] {
        self.decorations.of(id.into())
    }

    /// Whether an id has a decoration.
    pub fn has_deco(&self, id: impl Into<SpvId>, d: spirv_headers::Decoration) -> bool {
        self.decos(id).iter().any(|x| x.kind == d)
    }

    /// The first literal operand of a decoration on an id.
    pub fn deco_lit(&self, id: impl Into<SpvId>, d: spirv_headers::Decoration) -> Option<u32> {
        self.decos(id)
            .iter()
            .find(|x| x.kind == d)
            .and_then(|x| match x.operands.first() {
                Some(Operand::LiteralBit32(v)) => Some(*v),
                _ => None,
            })
    }

    /// The BuiltIn decoration on an id.
    pub fn builtin_of(&self, id: SpvId) -> Option<spirv_headers::BuiltIn> {
        self.decos(id)
            .iter()
            .find_map(|x| match (x.kind, x.operands.first()) {
                (spirv_headers::Decoration::BuiltIn, Some(Operand::BuiltIn(b))) => Some(*b),
                _ => None,
            })
    }

    /// The linkage name (LinkageAttributes) of an id, if any.
    pub fn linkage_name(&self, id: SpvId) -> Option<(&str, spirv_headers::LinkageType)> {
        self.decos(id)
            .iter()
            .find_map(|x| match (x.kind, x.operands.first(), x.operands.get(1)) {
                (
                    spirv_headers::Decoration::LinkageAttributes,
                    Some(Operand::LiteralString(s)),
                    Some(Operand::LinkageType(t)),
                ) => Some((s.as_str(), *t)),
                _ => None,
            })
    }

    /// A debug name hint for an id: its OpName, else `_<id>` (a local for an id's value
    /// is named so by [`id_local`], without making the hint text).
    pub fn hint(&self, id: impl Into<SpvId>) -> String {
        let id = id.into();
        match self.names.get(id) {
            Some(n) if !n.is_empty() => n.to_string(),
            _ => {
                // `_<id>`, without `format!` (asked for most values).
                let mut s = String::with_capacity(11);
                s.push('_');
                // Writing to a String cannot fail.
                let _ = crate::llvm::print::num(&mut s, u64::from(id.0));
                s
            }
        }
    }

    /// Type info for a SPIR-V type id.
    pub fn type_info(&self, id: SpvTypeId) -> Result<&types::TypeInfo, Error> {
        self.types
            .get(&self.spv.types, id)
            .ok_or_else(|| Error::new(ErrorKind::InvalidModule(format!("%{id} is not a type"))))
    }

    /// The LLVM type for a SPIR-V type id.
    pub fn llty(&self, id: SpvTypeId) -> Result<TypeId, Error> {
        Ok(self.type_info(id)?.llvm)
    }

    /// The SPIR-V type structure for a type id (lowered already).
    pub fn spv_ty(&self, id: SpvTypeId) -> Result<&'a SpvTy, Error> {
        let types = &self.spv.types;
        types
            .index(id)
            .filter(|&i| self.types.get_at(i).is_some())
            .and_then(|i| types.at(i))
            .ok_or_else(|| Error::new(ErrorKind::InvalidModule(format!("%{id} is not a type"))))
    }

    /// The length of array type `id`, with the specialization constants set.
    pub fn array_len(&self, id: SpvTypeId) -> Result<u64, Error> {
        Ok(self.type_info(id)?.len)
    }

    /// A module-level value (constant, global, function address).
    pub fn global_value(&self, id: SpvId) -> Option<ValInfo> {
        self.values.get(id).filter(|v| !v.local)
    }

    /// The integer value of a constant id (scope, semantics, literal-like operands), once
    /// the constant is lowered: `spirv::Constants::int`.
    pub fn const_int(&self, id: SpvId) -> Option<u64> {
        match self.global_value(id)?.v {
            Value::Const(_) => self.spv.consts().int(id),
            _ => None,
        }
    }

    /// Whether the value of a constant id may still change by specialization after
    /// translation: it is a specialization constant that no value was set for, or is
    /// computed from one (`OpSpecConstantComposite`, `OpSpecConstantOp`), so its default
    /// is only a guess.
    pub fn follows_spec_default(&self, id: SpvId) -> bool {
        self.spec_deps.get(id).is_some_and(|d| d.default)
    }

    /// Whether a constant id is, or is computed from, a specialization constant whose value
    /// was set ([`Options::spec_constant`]).
    pub fn spec_is_set(&self, id: SpvId) -> bool {
        self.spec_deps.get(id).is_some_and(|d| d.set)
    }

    /// An integer constant of an LLVM integer type.
    pub fn int_const(&mut self, ty: TypeId, v: u64) -> ConstId {
        let bits = self.m.type_of_id(ty).scalar_bits().unwrap_or(64);
        let masked = if bits >= 64 {
            v
        } else {
            v & ((1u64 << bits) - 1)
        };
        self.m.constant(llvm::Const::Int(ty, masked))
    }

    /// `i32 v` as a value.
    pub fn i32_val(&mut self, v: u64) -> Value {
        let t = self.m.ty(llvm::Type::Int(32));
        Value::Const(self.int_const(t, v))
    }

    /// The calling convention of non-kernel functions in this module.
    pub fn func_cc(&self) -> CallConv {
        if self.kernel && self.opts.target == Target::Generic {
            CallConv::SpirFunc
        } else {
            CallConv::C
        }
    }

    /// Records a module-level value.
    pub fn set_global_value(
        &mut self,
        id: SpvId,
        v: Value,
        spv_ty: SpvTypeId,
    ) -> Result<(), Error> {
        let vi = ValInfo {
            v,
            spv_ty,
            local: false,
        };
        if !self.values.set(id, vi)? {
            return Err(Error::new(ErrorKind::IdOutOfBound {
                id: id.0,
                bound: self.spv.header.bound,
            }));
        }
        Ok(())
    }

    /// The result type of a module-level instruction defining `id`.
    pub fn spv_globals_type(&self, id: SpvId) -> Result<SpvTypeId, Error> {
        self.spv
            .globals
            .iter()
            .find(|i| i.result_id() == Some(id))
            .and_then(|i| i.result_type())
            .ok_or_else(|| crate::error::invalid(format!("%{id} has no type")))
    }

    /// A warning, shown by the CLI on stderr.
    pub fn warn(&mut self, inst: &Inst, msg: impl std::fmt::Display) {
        self.m.warnings.push(format!("{}: {msg}", inst.location()));
    }
}

/// The call-graph fixpoint of SPEC §5: a function is convergent if it contains a
/// convergent operation or calls a convergent function (worklist over callers; linear).
fn convergent_functions(
    functions: &[spirv::Function],
    facts: &spirv::Facts,
    header: spirv::Header,
) -> spirv::IdSet {
    let mut conv = header.id_set();
    let mut callers: HashMap<SpvId, Vec<SpvId>> = HashMap::new();
    let mut work = Vec::new();
    for (i, f) in functions.iter().enumerate() {
        let id = f.id();
        if facts.convergent_op.get(i).copied().unwrap_or(false) && conv.insert(id) {
            work.push(id);
        }
        for &callee in facts.calls.get(i) {
            callers.entry(callee).or_default().push(id);
        }
    }
    while let Some(f) = work.pop() {
        for &caller in callers.get(&f).map_or(&[][..], |v| v.as_slice()) {
            if conv.insert(caller) {
                work.push(caller);
            }
        }
    }
    conv
}

/// What the value of a specialization constant depends on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SpecDeps {
    /// A specialization constant's default, which may change after translation.
    pub default: bool,
    /// A value set by [`Options::spec_constant`].
    pub set: bool,
}

/// What each id defined by an `OpSpecConstant…` instruction depends on: a scalar one on
/// its set value or its default; a composite or operation on what its operands depend on
/// (operands are defined before use), or, when they are all ordinary constants, on a
/// default (it is a specialization constant all the same).
fn spec_dependencies(spv: &spirv::Module, set: &crate::spec::Resolved) -> spirv::IdTable<SpecDeps> {
    // Only specialization constants have an entry: a hash map whatever the ids.
    let mut out = spirv::IdTable::new(spv.header.bound, false, SpecDeps::default());
    for i in &spv.globals {
        let Some(id) = i.result_id() else { continue };
        let deps = match i.op {
            Op::SpecConstant | Op::SpecConstantTrue | Op::SpecConstantFalse => SpecDeps {
                default: !set.contains(id),
                set: set.contains(id),
            },
            Op::SpecConstantComposite | Op::SpecConstantOp => {
                let mut d = i
                    .operands
                    .iter()
                    .filter_map(|o| match o {
                        Operand::IdRef(x) => out.get(SpvId(*x)),
                        _ => None,
                    })
                    .fold(SpecDeps::default(), |a, b| SpecDeps {
                        default: a.default || b.default,
                        set: a.set || b.set,
                    });
                d.default |= !d.set;
                d
            }
            _ => continue,
        };
        if let Some(slot) = out.get_mut(id) {
            *slot = deps;
        }
    }
    out
}

/// The LLVM triple environment name for an execution model.
fn stage_name(model: spirv_headers::ExecutionModel) -> &'static str {
    use spirv_headers::ExecutionModel as E;
    match model {
        E::Vertex => "vertex",
        E::TessellationControl => "hull",
        E::TessellationEvaluation => "domain",
        E::Geometry => "geometry",
        E::Fragment => "pixel",
        E::GLCompute | E::Kernel => "compute",
        E::TaskEXT | E::TaskNV => "amplification",
        E::MeshEXT | E::MeshNV => "mesh",
        E::RayGenerationKHR => "raygeneration",
        E::IntersectionKHR => "intersection",
        E::AnyHitKHR => "anyhit",
        E::ClosestHitKHR => "closesthit",
        E::MissKHR => "miss",
        E::CallableKHR => "callable",
    }
}

#[cfg(test)]
mod handover_tests {
    use super::{Handover, StopOnDrop};
    use std::sync::atomic::Ordering::SeqCst;
    use std::time::Duration;

    /// A fast sender and a slow receiver: what is in flight stays under the bound (it
    /// would reach every body sent without it), and every body arrives.
    #[test]
    fn what_waits_for_the_lowering_is_bounded() {
        let handover = Handover::default();
        let (tx, rx) = std::sync::mpsc::channel::<usize>();
        let (bodies, w) = (2000, 100);
        let most = std::thread::scope(|scope| {
            let sender = scope.spawn(|| {
                let _ = handover.checker.set(std::thread::current());
                let mut most = 0;
                for _ in 0..bodies {
                    handover.send(w);
                    most = most.max(handover.in_flight.load(SeqCst));
                    tx.send(w).expect("received");
                }
                drop(tx);
                most
            });
            let mut received = 0;
            for w in rx {
                std::thread::sleep(Duration::from_micros(20));
                handover.received(w);
                received += 1;
            }
            assert_eq!(received, bodies);
            sender.join().expect("no panic")
        });
        assert!(most <= Handover::HIGH + w, "{most} in flight");
        assert!(most > Handover::LOW, "{most}: the sender never got ahead");
        assert_eq!(handover.in_flight.load(SeqCst), 0);
    }

    /// A sender waiting for a lowering that ended is woken, and waits no more.
    #[test]
    fn a_waiting_sender_goes_on_when_the_lowering_ends() {
        let handover = Handover::default();
        handover.in_flight.store(Handover::HIGH + 1, SeqCst);
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let _ = handover.checker.set(std::thread::current());
                handover.send(1);
                done_tx.send(()).expect("sent");
            });
            // Nothing is received: the sender waits.
            assert!(done_rx.recv_timeout(Duration::from_millis(100)).is_err());
            drop(StopOnDrop(&handover));
            let sent = done_rx.recv_timeout(Duration::from_secs(60));
            assert_eq!(sent, Ok(()), "the sender goes on once the lowering ended");
        });
    }
}
