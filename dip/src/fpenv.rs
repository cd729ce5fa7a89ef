//! Watching the program's floating-point environment.
//!
//! The profile is only complete while our exceptions stay unmasked and neither
//! flush-to-zero (FTZ: denormal results become 0) nor denormals-are-zero (DAZ: denormal
//! inputs read as 0, no exception) is set. Programs change this behind our back:
//! `-ffast-math` links `crtfastmath.o`, whose constructor sets FTZ/DAZ before `main`;
//! `_mm_setcsr`, `fesetenv(FE_DFL_ENV)` and `feholdexcept` mask exceptions again.
//! There are no timers and no polling (that would cost time when nothing happens), so
//! the state is *observed* where we run anyway: at start, in every handler (from the
//! saved context), after the interposed `fe*` calls, at thread exit and at exit. Every
//! observation that differs from the armed state is remembered (the first few in
//! detail) and ends up in the report's `fp_environment`.

use core::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering::*};

use crate::fpu::{self, MX_DAZ, MX_FTZ};

/// Where an observation was made.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u32)]
pub enum Where {
    Start = 0,
    Handler,
    ThreadStart,
    ThreadExit,
    Exit,
    Fesetenv,
    Feupdateenv,
    Feholdexcept,
    Feenableexcept,
    Fedisableexcept,
    Fesetexceptflag,
}

impl Where {
    pub fn name(self) -> &'static str {
        match self {
            Where::Start => "start",
            Where::Handler => "signal handler",
            Where::ThreadStart => "thread start",
            Where::ThreadExit => "thread exit",
            Where::Exit => "exit",
            Where::Fesetenv => "fesetenv",
            Where::Feupdateenv => "feupdateenv",
            Where::Feholdexcept => "feholdexcept",
            Where::Feenableexcept => "feenableexcept",
            Where::Fedisableexcept => "fedisableexcept",
            Where::Fesetexceptflag => "fesetexceptflag",
        }
    }

    fn from_u32(v: u32) -> Where {
        const ALL: [Where; 11] = [
            Where::Start,
            Where::Handler,
            Where::ThreadStart,
            Where::ThreadExit,
            Where::Exit,
            Where::Fesetenv,
            Where::Feupdateenv,
            Where::Feholdexcept,
            Where::Feenableexcept,
            Where::Fedisableexcept,
            Where::Fesetexceptflag,
        ];
        ALL.get(v as usize).copied().unwrap_or(Where::Start)
    }
}

/// MXCSR and x87 control word the program started with (before we armed).
static START_MX: AtomicU32 = AtomicU32::new(0x1f80);
static START_CW: AtomicU32 = AtomicU32::new(0x037f);
/// The armed state (our masks cleared) at start.
static ARMED_MX: AtomicU32 = AtomicU32::new(0x1e80);
static ARMED_CW: AtomicU32 = AtomicU32::new(0x037d);
/// The program's MXCSR at exit (see [`set_exit`]); `u32::MAX` until then.
static EXIT_MX: AtomicU32 = AtomicU32::new(u32::MAX);

static SEEN_FTZ: AtomicBool = AtomicBool::new(false);
static SEEN_DAZ: AtomicBool = AtomicBool::new(false);
static SEEN_MASKED: AtomicBool = AtomicBool::new(false);
/// The program's own `feenableexcept(FE_UNDERFLOW)`: underflow traps are then its own.
static PROGRAM_WANTS_UE: AtomicBool = AtomicBool::new(false);

const MAX_OBS: usize = 16;
struct Obs {
    at: AtomicU32,
    mx: AtomicU32,
    cw: AtomicU32,
}
static OBS: [Obs; MAX_OBS] = [const {
    Obs {
        at: AtomicU32::new(0),
        mx: AtomicU32::new(0),
        cw: AtomicU32::new(0),
    }
}; MAX_OBS];
static NOBS: AtomicUsize = AtomicUsize::new(0);
/// Observations that differed from the armed state (all of them, not only the first).
static NCHANGED: AtomicUsize = AtomicUsize::new(0);
/// Control bits (MXCSR above the flags, x87 CW) of the last recorded observation, so
/// the same changed state seen in every handler is recorded once.
static LAST_CTRL: AtomicU32 = AtomicU32::new(u32::MAX);

/// Control bits only: MXCSR bits 6..16 (DAZ, masks, rounding, FTZ) and the x87 CW.
fn ctrl(mx: u32, cw: u16) -> u32 {
    ((mx & 0xffc0) << 16) | cw as u32
}

/// At start, before arming: the program's own environment.
pub fn set_start(mx: u32, cw: u16) {
    START_MX.store(mx, Relaxed);
    START_CW.store(cw as u32, Relaxed);
}

/// At start, after arming.
pub fn set_armed(mx: u32, cw: u16) {
    ARMED_MX.store(mx, Relaxed);
    ARMED_CW.store(cw as u32, Relaxed);
}

/// At a normal exit, on the exiting thread: its MXCSR as the program would have it
/// without the profiler — the masks we cleared at start set again, the sticky exception
/// flags dropped — so it compares with the start value bit for bit. (Not on a fatal
/// signal: the kernel gives a handler a fresh MXCSR, not the program's.)
pub fn set_exit(mx: u32) {
    let ours = START_MX.load(Relaxed) & fpu::armed_mx_masks();
    EXIT_MX.store((mx | ours) & !0x3f, Relaxed);
}

/// Looks at an MXCSR / x87 control word seen at `at`.
pub fn observe(at: Where, mx: u32, cw: u16) {
    let ftz = mx & MX_FTZ != 0;
    let daz = mx & MX_DAZ != 0;
    // Sampled mode masks the exceptions itself between windows (and unmasks them at
    // every window, whatever the program did): masked is normal there.
    let masked = !crate::sampling::sampled()
        && (mx & fpu::armed_mx_masks() != 0 || cw & fpu::armed_cw_masks() != 0);
    if !(ftz || daz || masked) {
        return;
    }
    if ftz {
        SEEN_FTZ.store(true, Relaxed);
    }
    if daz {
        SEEN_DAZ.store(true, Relaxed);
    }
    if masked {
        SEEN_MASKED.store(true, Relaxed);
    }
    NCHANGED.fetch_add(1, Relaxed);
    let c = ctrl(mx, cw);
    if LAST_CTRL.swap(c, Relaxed) == c {
        return;
    }
    let i = NOBS.fetch_add(1, Relaxed);
    if let Some(o) = OBS.get(i) {
        o.at.store(at as u32, Relaxed);
        o.mx.store(mx, Relaxed);
        o.cw.store(cw as u32, Relaxed);
    }
}

/// Observes the calling thread's live registers.
pub fn observe_now(at: Where) {
    observe(at, fpu::get_mxcsr(), fpu::get_x87_cw());
}

pub fn program_wants_underflow() -> bool {
    PROGRAM_WANTS_UE.load(Relaxed)
}

#[cfg_attr(test, allow(dead_code))]
pub fn set_program_wants_underflow(v: bool) {
    PROGRAM_WANTS_UE.store(v, Relaxed);
}

/// A snapshot for the report.
pub struct Summary {
    pub start_mx: u32,
    pub start_cw: u16,
    pub armed_mx: u32,
    pub armed_cw: u16,
    /// The program's MXCSR at exit ([`set_exit`]), if it exited normally.
    pub exit_mx: Option<u32>,
    pub ftz: bool,
    pub daz: bool,
    pub masked: bool,
    pub changed: usize,
}

pub fn summary() -> Summary {
    let start_mx = START_MX.load(Relaxed);
    Summary {
        start_mx,
        start_cw: START_CW.load(Relaxed) as u16,
        armed_mx: ARMED_MX.load(Relaxed),
        armed_cw: ARMED_CW.load(Relaxed) as u16,
        exit_mx: Some(EXIT_MX.load(Relaxed)).filter(|&m| m != u32::MAX),
        ftz: SEEN_FTZ.load(Relaxed) || start_mx & MX_FTZ != 0,
        daz: SEEN_DAZ.load(Relaxed) || start_mx & MX_DAZ != 0,
        masked: SEEN_MASKED.load(Relaxed),
        changed: NCHANGED.load(Relaxed),
    }
}

/// Calls `f(where, mxcsr, x87 cw)` for the recorded observations, in order.
pub fn for_each_observation(mut f: impl FnMut(Where, u32, u16)) {
    let n = NOBS.load(Relaxed).min(MAX_OBS);
    for o in OBS.iter().take(n) {
        f(
            Where::from_u32(o.at.load(Relaxed)),
            o.mx.load(Relaxed),
            o.cw.load(Relaxed) as u16,
        );
    }
}

/// After `fork`: the child's report describes the child only.
pub fn reset() {
    SEEN_FTZ.store(false, Relaxed);
    SEEN_DAZ.store(false, Relaxed);
    SEEN_MASKED.store(false, Relaxed);
    NOBS.store(0, Relaxed);
    NCHANGED.store(0, Relaxed);
    LAST_CTRL.store(u32::MAX, Relaxed);
    EXIT_MX.store(u32::MAX, Relaxed);
}
