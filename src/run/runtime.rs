//! The host runtime: dispatches a grid of work-groups of a kernel or compute shader
//! compiled with `--target host`, and provides the functions the translation leaves as
//! calls (`__spirv_ControlBarrier`; the group operations are in groups.rs).
//!
//! Semantics (README "Running translated code"):
//! - Work-groups run one after another; the invocations of a work-group run at once, one
//!   thread each, so any barrier placement is correct. Work-group memory (module-scope
//!   Workgroup variables, `local` kernel arguments) belongs to the group that runs.
//! - Subgroups are `Grid::subgroup_size` consecutive local indices (default 1: each
//!   invocation its own subgroup, a valid Vulkan and OpenCL implementation); their
//!   operations are in groups.rs.
//! - A barrier that can never complete (an invocation returned while others wait), a
//!   trap (SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE) or the wall-clock limit ends the run
//!   with an error and exit code 1, never a hang.

use super::groups::{Contribution, HERE, Here, SCOPE_SUBGROUP, SCOPE_WORKGROUP, Subgroup};
use std::ffi::c_void;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The per-invocation record `spirv_lift.set_invocation` reads (lower/host.rs in the
/// library has the byte offsets; `record_layout_matches_the_translator` checks them).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Invocation {
    pub global_id: [u64; 3],
    pub local_id: [u64; 3],
    pub group_id: [u64; 3],
    pub global_size: [u64; 3],
    pub local_size: [u64; 3],
    pub num_groups: [u64; 3],
    pub global_offset: [u64; 3],
    pub local_index: u64,
    pub global_linear_id: u64,
    pub work_dim: u32,
    pub subgroup_size: u32,
    pub subgroup_max_size: u32,
    pub num_subgroups: u32,
    pub num_enqueued_subgroups: u32,
    pub subgroup_id: u32,
    pub subgroup_local_id: u32,
    pub _pad: u32,
    /// The `Subgroup{Eq,Ge,Gt,Le,Lt}Mask` ballots (`uvec4`, bit 0 of word 0 first).
    pub subgroup_eq_mask: [u32; 4],
    pub subgroup_ge_mask: [u32; 4],
    pub subgroup_gt_mask: [u32; 4],
    pub subgroup_le_mask: [u32; 4],
    pub subgroup_lt_mask: [u32; 4],
}

/// What went wrong in a dispatch.
#[derive(Debug)]
pub enum Failure {
    /// Some invocations wait at a barrier that the others returned without reaching.
    BarrierNeverCompletes { waiting: usize, returned: usize },
    /// The dispatch overran its wall-clock limit.
    Timeout(Duration),
    /// A barrier with a scope the runtime does not implement.
    Unsupported(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::BarrierNeverCompletes { waiting, returned } => write!(
                f,
                "a work-group barrier can never complete: {waiting} invocation(s) wait at it \
                 and {returned} returned without reaching it"
            ),
            Failure::Timeout(d) => write!(
                f,
                "the dispatch did not finish within {:.1} s (--timeout)",
                d.as_secs_f64()
            ),
            Failure::Unsupported(s) => write!(f, "{s}"),
        }
    }
}

/// The barrier of one work-group: a generation counter, and the count of invocations
/// that arrived at the current barrier or returned from the entry point; work-group
/// collectives also exchange one contribution per invocation through it.
pub struct Group {
    size: usize,
    state: Mutex<GroupState>,
    cv: Condvar,
}

#[derive(Default)]
struct GroupState {
    arrived: usize,
    returned: usize,
    generation: u64,
    failure: Option<String>,
    /// Each invocation's contribution to the collective being met.
    slots: Vec<Contribution>,
    /// The contributions of the last completed collective (stable until every
    /// invocation, the readers included, arrives at the next one).
    met: Vec<Contribution>,
}

impl Group {
    fn new(size: usize) -> Group {
        Group {
            size,
            state: Mutex::new(GroupState {
                slots: vec![Contribution::default(); size],
                ..GroupState::default()
            }),
            cv: Condvar::new(),
        }
    }

    /// Waits until every invocation of the group arrives. When that can no longer
    /// happen, records the failure and never returns (the dispatcher ends the process).
    fn barrier(&self) {
        self.meet(0, Contribution::default(), false);
    }

    /// A work-group collective: waits for every invocation's contribution and returns
    /// them all, by local index.
    pub fn exchange(&self, index: usize, c: Contribution) -> Vec<Contribution> {
        self.meet(index, c, true)
    }

    fn meet(&self, index: usize, c: Contribution, want: bool) -> Vec<Contribution> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let slot = index % self.size;
        s.slots[slot] = c;
        s.arrived += 1;
        if s.arrived == self.size {
            s.arrived = 0;
            s.generation += 1;
            if want {
                s.met = s.slots.clone();
            }
            self.cv.notify_all();
            return if want { s.met.clone() } else { Vec::new() };
        }
        self.check_stuck(&mut s);
        let generation = s.generation;
        while s.generation == generation {
            s = self.cv.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        if want { s.met.clone() } else { Vec::new() }
    }

    /// An invocation returned from the entry point.
    fn returned(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.returned += 1;
        self.check_stuck(&mut s);
    }

    fn check_stuck(&self, s: &mut GroupState) {
        if s.arrived > 0 && s.arrived + s.returned == self.size && s.failure.is_none() {
            s.failure = Some(
                Failure::BarrierNeverCompletes {
                    waiting: s.arrived,
                    returned: s.returned,
                }
                .to_string(),
            );
            self.cv.notify_all();
        }
    }
}

/// Where a failure inside an invocation (called from compiled code, which cannot
/// unwind) is reported: the dispatcher polls it.
static FAILURE: Mutex<Option<String>> = Mutex::new(None);

pub(crate) fn fail(message: String) -> ! {
    *FAILURE.lock().unwrap_or_else(|e| e.into_inner()) = Some(message);
    // Compiled code cannot unwind: this thread parks forever; the dispatcher reports
    // the failure and ends the process.
    loop {
        std::thread::park();
    }
}

const SCOPE_INVOCATION: i32 = 4;

/// `__spirv_ControlBarrier(execution scope, memory scope, semantics)`. The fences that
/// order memory are in the translated code around this call; this only waits: for the
/// work-group (the invocation's subgroup counts it as waiting meanwhile), or for the
/// subgroup's other lanes (groups.rs).
#[unsafe(no_mangle)]
pub extern "C" fn _Z22__spirv_ControlBarrieriii(exec: i32, _mem: i32, _sem: i32) {
    let Some(h) = HERE.with(std::cell::Cell::get) else {
        fail("__spirv_ControlBarrier called outside a dispatch".into());
    };
    match exec {
        SCOPE_WORKGROUP => {
            // SAFETY: the dispatcher keeps the group and subgroup alive until every
            // invocation thread of them has been joined.
            let (g, sg) = unsafe { (&*h.group, &*h.subgroup) };
            sg.block(h.lane as usize);
            g.barrier();
            sg.unblock(h.lane as usize);
        }
        SCOPE_SUBGROUP => {
            // SAFETY: called on an invocation's thread.
            unsafe {
                super::groups::group(
                    SCOPE_SUBGROUP,
                    super::groups::op::BARRIER,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                )
            };
        }
        SCOPE_INVOCATION => {}
        other => fail(format!(
            "a control barrier with execution scope {other} (only Workgroup, Subgroup and \
             Invocation are implemented)"
        )),
    }
}

/// OpenCL.std `u_hadd` on ushort: `(x + y) >> 1` without overflow.
#[unsafe(no_mangle)]
pub extern "C" fn _Z18__spirv_ocl_u_haddtt(x: u16, y: u16) -> u16 {
    ((u32::from(x) + u32::from(y)) >> 1) as u16
}

/// OpenCL.std `u_mul_hi` on ulong: the high 64 bits of the 128-bit product.
#[unsafe(no_mangle)]
pub extern "C" fn _Z20__spirv_ocl_u_mul_himm(x: u64, y: u64) -> u64 {
    ((u128::from(x) * u128::from(y)) >> 64) as u64
}

/// OpenCL.std `s_abs_diff` on long: |x - y| as an unsigned value.
#[unsafe(no_mangle)]
pub extern "C" fn _Z22__spirv_ocl_s_abs_diffll(x: i64, y: i64) -> u64 {
    x.abs_diff(y)
}

/// OpenCL.std `u_upsample` on uchar: `hi << 8 | lo`.
#[unsafe(no_mangle)]
pub extern "C" fn _Z22__spirv_ocl_u_upsamplehh(hi: u8, lo: u8) -> u16 {
    (u16::from(hi) << 8) | u16::from(lo)
}

/// OpenCL.std `u_upsample` on uint: `hi << 32 | lo`.
#[unsafe(no_mangle)]
pub extern "C" fn _Z22__spirv_ocl_u_upsamplejj(hi: u32, lo: u32) -> u64 {
    (u64::from(hi) << 32) | u64::from(lo)
}

/// `x` as a half's bits, rounded by SPIR-V's FPRoundingMode `mode` (RTE 0, RTZ 1, RTP 2,
/// RTN 3; another value rounds to nearest even): OpenCL's `vstore_half*` conversions.
/// A float is exact as a double, so the one rounding here is the only one.
pub fn f64_to_f16(x: f64, mode: i32) -> u16 {
    let sign: u16 = if x.is_sign_negative() { 0x8000 } else { 0 };
    if x.is_nan() {
        return sign | 0x7e00;
    }
    let a = x.abs();
    if a.is_infinite() {
        return sign | 0x7c00;
    }
    // Whether rounding away from zero is the direction `mode` takes for this sign when
    // the value is not exact.
    let (toward_zero, away) = match (mode, sign != 0) {
        (1, _) | (2, true) | (3, false) => (true, false),
        (2, false) | (3, true) => (false, true),
        _ => (false, false),
    };
    let overflow = |s: u16| {
        if toward_zero { s | 0x7bff } else { s | 0x7c00 }
    };
    if a == 0.0 {
        return sign;
    }
    // The exponent of a's leading bit (a f64 subnormal is far below any half).
    let e = ((a.to_bits() >> 52) as i32 & 0x7ff) - 1023;
    if e > 15 {
        return overflow(sign);
    }
    // Quantum: 2^-24 for half subnormals, else 2^(e-10).
    let qexp = if e < -14 { -24 } else { e - 10 };
    let m = a * 2f64.powi(-qexp);
    let mut i = m.floor();
    let frac = m - i;
    let up = if frac == 0.0 || toward_zero {
        false
    } else if away {
        true
    } else {
        frac > 0.5 || (frac == 0.5 && i % 2.0 == 1.0)
    };
    if up {
        i += 1.0;
    }
    let i = i as u32;
    if qexp == -24 {
        // A subnormal, or (i = 1024) the smallest normal: the same bits.
        return sign | i as u16;
    }
    let (i, e) = if i == 2048 { (1024, e + 1) } else { (i, e) };
    if e > 15 {
        return overflow(sign);
    }
    sign | (((e + 15) as u16) << 10) | (i - 1024) as u16
}

/// `spirv_lift.f32_to_f16(float, mode)`: [`f64_to_f16`] for `vstore_half*` of floats.
#[unsafe(export_name = "spirv_lift.f32_to_f16")]
pub extern "C" fn f32_to_f16(x: f32, mode: i32) -> u16 {
    f64_to_f16(f64::from(x), mode)
}

/// `spirv_lift.f64_to_f16(double, mode)`: [`f64_to_f16`] for `vstore_half*` of doubles.
#[unsafe(export_name = "spirv_lift.f64_to_f16")]
pub extern "C" fn f64_to_f16_c(x: f64, mode: i32) -> u16 {
    f64_to_f16(x, mode)
}

/// The buffers of the running dispatch: (base address, size in bytes), for
/// `spirv_lift.buffer_size` (`OpArrayLength`).
pub static BUFFERS: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

/// `i64 spirv_lift.buffer_size(ptr)`: the byte size of the buffer bound at `base`
/// (lower/host.rs lowers `OpArrayLength` with it).
#[unsafe(export_name = "spirv_lift.buffer_size")]
pub extern "C" fn buffer_size(base: *const c_void) -> i64 {
    let found = BUFFERS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .find(|(b, _)| *b == base as usize)
        .map(|&(_, n)| n as i64);
    match found {
        Some(n) => n,
        None => fail(format!(
            "OpArrayLength of a block at {base:p}, which is not the start of a bound buffer"
        )),
    }
}

/// The compiled module's two entry symbols.
pub struct Entry {
    /// `spirv_lift.set_invocation`.
    pub set_invocation: unsafe extern "C" fn(*const Invocation),
    /// `<name>.spirv_lift_entry`.
    pub entry: unsafe extern "C" fn(*const *mut c_void),
    /// `spirv_lift.begin_group`, when the module defines it: stores the initializers of
    /// Workgroup variables before each work-group.
    pub begin_group: Option<unsafe extern "C" fn()>,
}

impl Entry {
    /// Prepares the module's work-group memory for the next group.
    fn start_group(&self) {
        if let Some(f) = self.begin_group {
            // SAFETY: defined by the translator with this signature (lower/host.rs); no
            // invocation of the module runs between groups.
            unsafe { f() }
        }
    }
}

/// The grid of one dispatch.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    /// Work-groups in each dimension.
    pub groups: [u64; 3],
    /// Invocations per work-group in each dimension.
    pub local: [u64; 3],
    /// 1, 2 or 3.
    pub work_dim: u32,
    /// Whether the invocations of a group must run at once (the module has work-group
    /// barriers); otherwise they run one after another on one thread, which costs no
    /// thread start per invocation.
    pub concurrent: bool,
    /// Invocations per subgroup (1 to 128): consecutive local indices form a subgroup.
    pub subgroup_size: u32,
    /// Vulkan's `SubgroupSize` is this size in every subgroup; OpenCL's
    /// `get_sub_group_size` is the number of invocations of the subgroup (fewer in the
    /// last one when the work-group size is not a multiple).
    pub vulkan: bool,
}

/// One argument slot: a pointer to the parameter's value (see lower/host.rs).
pub struct Args {
    /// `args[i]` for the trampoline.
    pub slots: Vec<*mut c_void>,
}

// The slots point into buffers owned by the caller for the whole dispatch, and compiled
// code synchronizes its own accesses (the kernel's atomics and barriers).
unsafe impl Send for Args {}
unsafe impl Sync for Args {}

struct SendHere(Here);
unsafe impl Send for SendHere {}

/// Runs every work-group of `grid`; `before_group` runs before each group starts (it
/// clears `local` memory).
pub fn dispatch(
    entry: &Entry,
    args: &Args,
    grid: Grid,
    timeout: Duration,
    mut before_group: impl FnMut(),
) -> Result<(), Failure> {
    let n_local = (grid.local[0] * grid.local[1] * grid.local[2]) as usize;
    let deadline = Instant::now() + timeout;
    if !grid.concurrent {
        return dispatch_sequential(entry, args, grid, timeout, before_group);
    }
    for gz in 0..grid.groups[2] {
        for gy in 0..grid.groups[1] {
            for gx in 0..grid.groups[0] {
                before_group();
                entry.start_group();
                let group = Arc::new(Group::new(n_local));
                let sg = grid.subgroup_size.max(1) as usize;
                let subgroups: Vec<Arc<Subgroup>> = (0..n_local.div_ceil(sg))
                    .map(|k| Arc::new(Subgroup::new(sg.min(n_local - k * sg))))
                    .collect();
                let mut handles = Vec::with_capacity(n_local);
                for index in 0..n_local as u64 {
                    let record = record(&grid, [gx, gy, gz], index);
                    let set = entry.set_invocation;
                    let run = entry.entry;
                    let slots = SendSlots(args.slots.as_ptr());
                    let keep = Arc::clone(&group);
                    let sub = Arc::clone(&subgroups[index as usize / sg]);
                    let here = SendHere(Here {
                        group: Arc::as_ptr(&group),
                        subgroup: Arc::as_ptr(&sub),
                        lane: record.subgroup_local_id,
                        subgroup_size: record.subgroup_size,
                        local_index: index as u32,
                        local_size: grid.local,
                    });
                    let h = std::thread::Builder::new()
                        .stack_size(8 << 20)
                        .spawn(move || {
                            let slots = slots;
                            let here = here;
                            HERE.with(|c| c.set(Some(here.0)));
                            // SAFETY: the trampoline and setter come from the module the
                            // translator wrote for this entry point; the slots outlive the
                            // dispatch.
                            unsafe {
                                set(&record);
                                run(slots.0);
                            }
                            sub.returned(here.0.lane as usize);
                            keep.returned();
                        })
                        .map_err(|e| Failure::Unsupported(format!("cannot start a thread: {e}")))?;
                    handles.push(h);
                }
                // Wait for the group, watching for failures and the deadline.
                loop {
                    if handles.iter().all(|h| h.is_finished()) {
                        break;
                    }
                    if let Some(f) = group
                        .state
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .failure
                        .clone()
                    {
                        return Err(Failure::Unsupported(f));
                    }
                    if let Some(f) = FAILURE.lock().unwrap_or_else(|e| e.into_inner()).take() {
                        return Err(Failure::Unsupported(f));
                    }
                    if Instant::now() > deadline {
                        return Err(Failure::Timeout(timeout));
                    }
                    std::thread::sleep(Duration::from_micros(200));
                }
                for h in handles {
                    let _ = h.join();
                }
            }
        }
    }
    Ok(())
}

/// The record of invocation `index` of group `g`.
fn record(grid: &Grid, g: [u64; 3], index: u64) -> Invocation {
    let n_local = grid.local[0] * grid.local[1] * grid.local[2];
    let global_size = [0, 1, 2].map(|d| grid.groups[d] * grid.local[d]);
    let lx = index % grid.local[0];
    let ly = (index / grid.local[0]) % grid.local[1];
    let lz = index / (grid.local[0] * grid.local[1]);
    let sg = grid.subgroup_size.clamp(1, 128);
    let lane = index % u64::from(sg);
    // The invocations of this subgroup (fewer than `sg` in a last, partial one).
    let lanes = (n_local - (index - lane)).min(u64::from(sg)) as u32;
    let in_group = if sg == 128 {
        u128::MAX
    } else {
        (1u128 << sg) - 1
    };
    let gid = [
        g[0] * grid.local[0] + lx,
        g[1] * grid.local[1] + ly,
        g[2] * grid.local[2] + lz,
    ];
    Invocation {
        global_id: gid,
        local_id: [lx, ly, lz],
        group_id: g,
        global_size,
        local_size: grid.local,
        num_groups: grid.groups,
        global_offset: [0; 3],
        local_index: index,
        global_linear_id: (gid[2] * global_size[1] + gid[1]) * global_size[0] + gid[0],
        work_dim: grid.work_dim,
        subgroup_size: if grid.vulkan { sg } else { lanes },
        subgroup_max_size: sg,
        num_subgroups: n_local.div_ceil(u64::from(sg)) as u32,
        num_enqueued_subgroups: n_local.div_ceil(u64::from(sg)) as u32,
        subgroup_id: (index / u64::from(sg)) as u32,
        subgroup_local_id: lane as u32,
        _pad: 0,
        subgroup_eq_mask: words(1 << lane),
        // Bits of the lanes at or above this one, within the subgroup size.
        subgroup_ge_mask: words(in_group & !((1u128 << lane) - 1)),
        subgroup_gt_mask: words(in_group & !((1u128 << lane << 1).wrapping_sub(1))),
        subgroup_le_mask: words((1u128 << lane << 1).wrapping_sub(1)),
        subgroup_lt_mask: words((1u128 << lane) - 1),
    }
}

/// A 128-bit mask as `uvec4` words, bit 0 of word 0 first.
fn words(m: u128) -> [u32; 4] {
    [0, 1, 2, 3].map(|k| (m >> (32 * k)) as u32)
}

/// Every invocation one after another on this thread; a watchdog thread ends the
/// process when the time limit passes.
fn dispatch_sequential(
    entry: &Entry,
    args: &Args,
    grid: Grid,
    timeout: Duration,
    mut before_group: impl FnMut(),
) -> Result<(), Failure> {
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watch = Arc::clone(&done);
    let deadline = Instant::now() + timeout;
    std::thread::spawn(move || {
        while !watch.load(std::sync::atomic::Ordering::Relaxed) {
            if Instant::now() > deadline {
                eprintln!("error: {}", Failure::Timeout(timeout));
                std::process::exit(1);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    });
    let n_local = grid.local[0] * grid.local[1] * grid.local[2];
    // Each invocation is a group of one and a subgroup of one here: the module has no
    // work-group barrier or collective, and subgroups of size 1.
    let solo = Group::new(1);
    let solo_sub = Subgroup::new(1);
    HERE.with(|c| {
        c.set(Some(Here {
            group: &solo,
            subgroup: &solo_sub,
            lane: 0,
            subgroup_size: 1,
            local_index: 0,
            local_size: grid.local,
        }))
    });
    for gz in 0..grid.groups[2] {
        for gy in 0..grid.groups[1] {
            for gx in 0..grid.groups[0] {
                before_group();
                entry.start_group();
                for index in 0..n_local {
                    let r = record(&grid, [gx, gy, gz], index);
                    // SAFETY: as in `dispatch`.
                    unsafe {
                        (entry.set_invocation)(&r);
                        (entry.entry)(args.slots.as_ptr());
                    }
                }
            }
        }
    }
    HERE.with(|c| c.set(None));
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    if let Some(f) = FAILURE.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(Failure::Unsupported(f));
    }
    Ok(())
}

struct SendSlots(*const *mut c_void);
unsafe impl Send for SendSlots {}

/// Makes a trap in compiled code an error line and exit code 1 instead of a crash.
pub fn install_trap_handlers() {
    extern "C" fn on_signal(sig: libc::c_int) {
        let msg: &[u8] = match sig {
            libc::SIGILL => b"error: the translated code trapped (SIGILL: illegal instruction, e.g. `unreachable` or llvm.trap)\n",
            libc::SIGTRAP => b"error: the translated code trapped (SIGTRAP)\n",
            libc::SIGSEGV => b"error: the translated code accessed memory outside its buffers (SIGSEGV)\n",
            libc::SIGBUS => b"error: the translated code made a misaligned or invalid access (SIGBUS)\n",
            _ => b"error: the translated code raised an arithmetic exception (SIGFPE)\n",
        };
        // SAFETY: write(2) and _exit(2) are async-signal-safe.
        unsafe {
            libc::write(2, msg.as_ptr().cast(), msg.len());
            libc::_exit(1);
        }
    }
    for sig in [
        libc::SIGILL,
        libc::SIGTRAP,
        libc::SIGSEGV,
        libc::SIGBUS,
        libc::SIGFPE,
    ] {
        // SAFETY: installing a handler that only calls async-signal-safe functions.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as *const () as usize;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_layout_matches_the_translator() {
        // lower/host.rs INVOCATION_FIELDS: byte offsets of the record's fields.
        assert_eq!(std::mem::offset_of!(Invocation, global_id), 0);
        assert_eq!(std::mem::offset_of!(Invocation, local_id), 24);
        assert_eq!(std::mem::offset_of!(Invocation, group_id), 48);
        assert_eq!(std::mem::offset_of!(Invocation, global_size), 72);
        assert_eq!(std::mem::offset_of!(Invocation, local_size), 96);
        assert_eq!(std::mem::offset_of!(Invocation, num_groups), 120);
        assert_eq!(std::mem::offset_of!(Invocation, global_offset), 144);
        assert_eq!(std::mem::offset_of!(Invocation, local_index), 168);
        assert_eq!(std::mem::offset_of!(Invocation, global_linear_id), 176);
        assert_eq!(std::mem::offset_of!(Invocation, work_dim), 184);
        assert_eq!(std::mem::offset_of!(Invocation, subgroup_size), 188);
        assert_eq!(std::mem::offset_of!(Invocation, subgroup_max_size), 192);
        assert_eq!(std::mem::offset_of!(Invocation, num_subgroups), 196);
        assert_eq!(
            std::mem::offset_of!(Invocation, num_enqueued_subgroups),
            200
        );
        assert_eq!(std::mem::offset_of!(Invocation, subgroup_id), 204);
        assert_eq!(std::mem::offset_of!(Invocation, subgroup_local_id), 208);
        assert_eq!(std::mem::offset_of!(Invocation, subgroup_eq_mask), 216);
        assert_eq!(std::mem::offset_of!(Invocation, subgroup_ge_mask), 232);
        assert_eq!(std::mem::offset_of!(Invocation, subgroup_gt_mask), 248);
        assert_eq!(std::mem::offset_of!(Invocation, subgroup_le_mask), 264);
        assert_eq!(std::mem::offset_of!(Invocation, subgroup_lt_mask), 280);
        assert_eq!(std::mem::size_of::<Invocation>(), 296);
    }

    #[test]
    fn half_rounding_modes() {
        // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10).
        let mid = 1.0 + 2f64.powi(-11);
        assert_eq!(f64_to_f16(mid, 0), 0x3c00, "to even");
        assert_eq!(f64_to_f16(mid + 2f64.powi(-20), 0), 0x3c01, "past halfway");
        assert_eq!(f64_to_f16(mid, 1), 0x3c00, "toward zero");
        assert_eq!(f64_to_f16(mid, 2), 0x3c01, "toward +inf");
        assert_eq!(f64_to_f16(-mid, 2), 0xbc00, "-x toward +inf");
        assert_eq!(f64_to_f16(-mid, 3), 0xbc01, "-x toward -inf");
        assert_eq!(f64_to_f16(65504.0, 0), 0x7bff);
        assert_eq!(f64_to_f16(65520.0, 0), 0x7c00, "rounds up to inf");
        assert_eq!(f64_to_f16(1e6, 1), 0x7bff, "RTZ saturates");
        assert_eq!(f64_to_f16(-1e6, 2), 0xfbff);
        assert_eq!(f64_to_f16(2f64.powi(-24), 0), 0x0001, "smallest subnormal");
        assert_eq!(f64_to_f16(2f64.powi(-26), 2), 0x0001, "up to it");
        assert_eq!(f64_to_f16(2f64.powi(-26), 0), 0x0000);
        assert_eq!(f64_to_f16(0.1, 0), 0x2e66);
        assert_eq!(f64_to_f16(f64::NAN, 0) & 0x7e00, 0x7e00);
    }

    #[test]
    fn barrier_that_cannot_complete_is_a_failure() {
        let g = Group::new(2);
        g.returned();
        // The second invocation arrives at a barrier the first never reaches: recorded
        // before it would wait.
        {
            let mut s = g.state.lock().unwrap();
            s.arrived += 1;
            g.check_stuck(&mut s);
            assert!(s.failure.as_deref().unwrap().contains("can never complete"));
        }
    }
}
