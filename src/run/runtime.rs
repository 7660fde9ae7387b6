//! The host runtime: dispatches a grid of work-groups of a kernel or compute shader
//! compiled with `--target host`, and provides the functions the translation leaves as
//! calls (`__spirv_ControlBarrier`, subgroup operations at subgroup size 1).
//!
//! Semantics (README "Running translated code"):
//! - Work-groups run one after another; the invocations of a work-group run at once, one
//!   thread each, so any barrier placement is correct. Work-group memory (module-scope
//!   Workgroup variables, `local` kernel arguments) belongs to the group that runs.
//! - Each invocation is its own subgroup (subgroup size 1, a valid Vulkan and OpenCL
//!   implementation).
//! - A barrier that can never complete (an invocation returned while others wait), a
//!   trap (SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE) or the wall-clock limit ends the run
//!   with an error and exit code 1, never a hang.

use std::cell::Cell;
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
/// that arrived at the current barrier or returned from the entry point.
struct Group {
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
}

impl Group {
    fn new(size: usize) -> Group {
        Group {
            size,
            state: Mutex::new(GroupState::default()),
            cv: Condvar::new(),
        }
    }

    /// Waits until every invocation of the group arrives. When that can no longer
    /// happen, records the failure and never returns (the dispatcher ends the process).
    fn barrier(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.arrived += 1;
        if s.arrived == self.size {
            s.arrived = 0;
            s.generation += 1;
            self.cv.notify_all();
            return;
        }
        self.check_stuck(&mut s);
        let generation = s.generation;
        while s.generation == generation {
            s = self.cv.wait(s).unwrap_or_else(|e| e.into_inner());
        }
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

thread_local! {
    /// The group of the invocation running on this thread.
    static GROUP: Cell<*const Group> = const { Cell::new(std::ptr::null()) };
}

/// Where a failure inside an invocation (called from compiled code, which cannot
/// unwind) is reported: the dispatcher polls it.
static FAILURE: Mutex<Option<String>> = Mutex::new(None);

fn fail(message: String) -> ! {
    *FAILURE.lock().unwrap_or_else(|e| e.into_inner()) = Some(message);
    // Compiled code cannot unwind: this thread parks forever; the dispatcher reports
    // the failure and ends the process.
    loop {
        std::thread::park();
    }
}

/// SPIR-V's Workgroup and Subgroup scopes.
const SCOPE_WORKGROUP: i32 = 2;
const SCOPE_SUBGROUP: i32 = 3;
const SCOPE_INVOCATION: i32 = 4;

/// `__spirv_ControlBarrier(execution scope, memory scope, semantics)`. The fences that
/// order memory are in the translated code around this call; this only waits.
#[unsafe(no_mangle)]
pub extern "C" fn _Z22__spirv_ControlBarrieriii(exec: i32, _mem: i32, _sem: i32) {
    match exec {
        SCOPE_WORKGROUP => {
            let g = GROUP.with(Cell::get);
            if g.is_null() {
                fail("__spirv_ControlBarrier called outside a dispatch".into());
            }
            // SAFETY: the dispatcher keeps the group alive until every invocation thread
            // of it has been joined.
            unsafe { &*g }.barrier();
        }
        // Each invocation is its own subgroup.
        SCOPE_SUBGROUP | SCOPE_INVOCATION => {}
        other => fail(format!(
            "a control barrier with execution scope {other} (only Workgroup and Subgroup \
             are implemented)"
        )),
    }
}

/// `OpGroupNonUniformElect`: with subgroup size 1 every invocation is elected.
#[unsafe(no_mangle)]
pub extern "C" fn _Z28__spirv_GroupNonUniformElecti(_scope: i32) -> bool {
    true
}

/// Group operations of `OpGroupNonUniform*` at subgroup size 1: Reduce and
/// InclusiveScan give the value, ExclusiveScan the operation's identity.
fn subgroup_int(op: i32, value: i64, identity: i64) -> i64 {
    match op {
        0 | 1 => value,
        _ => identity,
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn _Z27__spirv_GroupNonUniformIAddiii(_s: i32, op: i32, v: i32) -> i32 {
    subgroup_int(op, i64::from(v), 0) as i32
}

#[unsafe(no_mangle)]
pub extern "C" fn _Z27__spirv_GroupNonUniformIAddiij(_s: i32, op: i32, v: u32) -> u32 {
    subgroup_int(op, i64::from(v), 0) as u32
}

#[unsafe(no_mangle)]
pub extern "C" fn _Z27__spirv_GroupNonUniformIMuliii(_s: i32, op: i32, v: i32) -> i32 {
    subgroup_int(op, i64::from(v), 1) as i32
}

#[unsafe(no_mangle)]
pub extern "C" fn _Z27__spirv_GroupNonUniformSMaxiii(_s: i32, op: i32, v: i32) -> i32 {
    subgroup_int(op, i64::from(v), i64::from(i32::MIN)) as i32
}

#[unsafe(no_mangle)]
pub extern "C" fn _Z27__spirv_GroupNonUniformFAddiif(_s: i32, op: i32, v: f32) -> f32 {
    if op == 2 { 0.0 } else { v }
}

#[unsafe(no_mangle)]
pub extern "C" fn _Z33__spirv_GroupNonUniformBitwiseXoriii(_s: i32, op: i32, v: i32) -> i32 {
    subgroup_int(op, i64::from(v), 0) as i32
}

#[unsafe(no_mangle)]
pub extern "C" fn _Z26__spirv_GroupNonUniformAllib(_s: i32, v: bool) -> bool {
    v
}

/// Shuffles at subgroup size 1: lane 0 is the only lane, so every in-range shuffle reads
/// the invocation's own value (an out-of-range lane is undefined; own value too).
#[unsafe(no_mangle)]
pub extern "C" fn _Z30__spirv_GroupNonUniformShuffleifi(_s: i32, v: f32, _lane: i32) -> f32 {
    v
}

#[unsafe(no_mangle)]
pub extern "C" fn _Z33__spirv_GroupNonUniformShuffleXorifi(_s: i32, v: f32, _m: i32) -> f32 {
    v
}

#[unsafe(no_mangle)]
pub extern "C" fn _Z32__spirv_GroupNonUniformShuffleUpifi(_s: i32, v: f32, _d: i32) -> f32 {
    v
}

#[unsafe(no_mangle)]
pub extern "C" fn _Z34__spirv_GroupNonUniformShuffleDownifi(_s: i32, v: f32, _d: i32) -> f32 {
    v
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

struct SendPtr(*const Group);
unsafe impl Send for SendPtr {}

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
                let mut handles = Vec::with_capacity(n_local);
                for index in 0..n_local as u64 {
                    let record = record(&grid, [gx, gy, gz], index);
                    let set = entry.set_invocation;
                    let run = entry.entry;
                    let slots = SendSlots(args.slots.as_ptr());
                    let g = SendPtr(Arc::as_ptr(&group));
                    let keep = Arc::clone(&group);
                    let h = std::thread::Builder::new()
                        .stack_size(8 << 20)
                        .spawn(move || {
                            let slots = slots;
                            let g = g;
                            GROUP.with(|c| c.set(g.0));
                            // SAFETY: the trampoline and setter come from the module the
                            // translator wrote for this entry point; the slots outlive the
                            // dispatch.
                            unsafe {
                                set(&record);
                                run(slots.0);
                            }
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
        subgroup_size: 1,
        subgroup_max_size: 1,
        num_subgroups: n_local as u32,
        num_enqueued_subgroups: n_local as u32,
        subgroup_id: index as u32,
        subgroup_local_id: 0,
        _pad: 0,
        // Subgroup size 1, invocation 0 of its subgroup: only bit 0 exists.
        subgroup_eq_mask: [1, 0, 0, 0],
        subgroup_ge_mask: [1, 0, 0, 0],
        subgroup_gt_mask: [0; 4],
        subgroup_le_mask: [1, 0, 0, 0],
        subgroup_lt_mask: [0; 4],
    }
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
    let solo = Group::new(1);
    GROUP.with(|c| c.set(&solo));
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
    GROUP.with(|c| c.set(std::ptr::null()));
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
