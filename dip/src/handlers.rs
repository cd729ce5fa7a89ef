//! The signal handlers: the SIGFPE → SIGTRAP dance, and passing on what is not ours.
//!
//! ## One denormal event (SSE/AVX)
//!
//! 1. An SSE instruction reads a denormal with MXCSR.DM clear: `#XM` fault, nothing
//!    written, the kernel sends SIGFPE with the registers saved in the `ucontext`.
//! 2. [`on_fpe`]: DE is set and unmasked in the *saved* MXCSR, so it is ours. Count the
//!    event at RIP. In the saved context (which the kernel loads back on `sigreturn`)
//!    set DM, clear the DE flag, set the trap flag (EFLAGS.TF) and block asynchronous
//!    signals; remember per thread what we changed ([`crate::steps`]). Return.
//! 3. The instruction runs again, masked: it completes with the exact result it would
//!    have had without us. Then TF makes the CPU raise a debug exception: SIGTRAP.
//! 4. [`on_trap`]: this thread is stepping, so it is ours: clear DM again, clear TF, put
//!    the signal mask back, release the slot. Return; the program continues at the next
//!    instruction with the exception armed again.
//!
//! Steps 2–4 become one: when the instruction is a register-to-register SSE operation
//! (`addps %xmm2,%xmm4`), [`crate::emulate`] runs it in the SIGFPE handler on the saved
//! registers with the exception masked and moves RIP past it — about 5× cheaper than
//! the step (measured: 15.7 → 2.9 µs per event), the SIGTRAP being the expensive half.
//!
//! In sampled mode ([`crate::sampling`]) an event outside a window is not counted and
//! leaves the exception masked; the event that fills a window is counted and masks it
//! (no step); the SIGTRAP handler unmasks again only while the window is open.
//!
//! With `TAINTPROF_DIP_UNDERFLOW=1` UM is unmasked too and an underflow (tiny result)
//! is counted at the instruction as a *result* event the same way; an instruction that
//! both reads a denormal and underflows faults twice (DE first, then UE while stepping)
//! and is stepped once. The x87 variant (delayed `#MF`, replay) is in `x87.rs`.
//!
//! ## Not ours
//!
//! The kernel runs our handler for SIGFPE, SIGTRAP and the fatal signals whatever the
//! program asked for; [`crate::disp`] holds what it asked for. An FP exception the
//! program unmasked itself, an integer division by zero, a `kill -FPE`, a breakpoint
//! SIGTRAP, a SIGSEGV, ... go to [`forward`]: the program's handler is called with the
//! same three arguments (it may edit the context, `siglongjmp`, or `exit`); SIG_IGN is
//! honoured for signals sent by processes (a synchronous fault cannot be ignored: the
//! kernel would kill the process, so we do the same); SIG_DFL means the process dies:
//! the raw report is written, the default action is restored and the signal re-raised,
//! so the exit status and core dump are what they would have been.
//!
//! Nothing here allocates or locks; errno is preserved.

use core::ffi::{c_int, c_void};
use core::ptr::null_mut;

use taintprof_sigsafe::{errno, getpid, gettid, set_errno};

use crate::emulate;
use crate::fpenv::{self, Where};
use crate::fpu::*;
use crate::sampling::{self, Take};
use crate::steps::{self, Step};
use crate::table::NO_BATCH;
use crate::x87::{self, Replay};
use crate::{disp, real, report, table};

use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// x87 replays by kind (exact, register adjusted, unverified): for the report.
pub static X87_EXACT: AtomicU64 = AtomicU64::new(0);
pub static X87_ADJUSTED: AtomicU64 = AtomicU64::new(0);
pub static X87_UNVERIFIED: AtomicU64 = AtomicU64::new(0);
/// Denormal `FLD`s that had completed when the fault came (no replay needed).
pub static X87_COMPLETED: AtomicU64 = AtomicU64::new(0);
/// SSE events handled by emulating the instruction (no step).
pub static EMULATED: AtomicU64 = AtomicU64::new(0);
/// Events for which no stepping slot was free: the exception stayed masked on that
/// thread from then on.
pub static GAVE_UP: AtomicU64 = AtomicU64::new(0);

/// Signals left deliverable during a step: the synchronous ones (blocking them would
/// make the kernel kill the process on a fault) and the unblockable ones.
const STEP_UNBLOCKED: [c_int; 8] = [
    libc::SIGFPE,
    libc::SIGTRAP,
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGILL,
    libc::SIGSYS,
    libc::SIGKILL,
    libc::SIGSTOP,
];

#[inline]
fn bit(sig: c_int) -> u64 {
    1u64 << ((sig - 1) as u32 & 63)
}

fn step_mask(orig: u64) -> u64 {
    let mut m = u64::MAX;
    for s in STEP_UNBLOCKED {
        m &= !bit(s);
    }
    m | (orig & !(bit(libc::SIGFPE) | bit(libc::SIGTRAP)))
}

/// First word (signals 1–64) of a context's saved signal mask.
fn sigmask_word(uc: *mut libc::ucontext_t) -> *mut u64 {
    // SAFETY: uc_sigmask is a sigset_t, at least 8 bytes, 8-aligned.
    unsafe { core::ptr::addr_of_mut!((*uc).uc_sigmask).cast::<u64>() }
}

/// SIGFPE.
pub extern "C" fn on_fpe(sig: c_int, info: *mut libc::siginfo_t, ctx: *mut c_void) {
    let saved = errno();
    // SAFETY: the kernel passes a valid siginfo and ucontext.
    let ours = unsafe { handle_fpe(info, ctx.cast()) };
    if !ours {
        forward(sig, info, ctx);
    }
    set_errno(saved);
}

/// Returns whether the exception was ours (and has been dealt with).
unsafe fn handle_fpe(info: *mut libc::siginfo_t, uc: *mut libc::ucontext_t) -> bool {
    if info.is_null() || uc.is_null() || (*info).si_code <= 0 {
        return false; // sent by a process (kill, raise, sigqueue), not the CPU
    }
    let fp = (*uc).uc_mcontext.fpregs;
    if fp.is_null() {
        return false;
    }
    let gregs = &mut (*uc).uc_mcontext.gregs;
    let trapno = gregs[libc::REG_TRAPNO as usize];
    let stepping_already = gregs[libc::REG_EFL as usize] & EFLAGS_TF != 0;
    let tid = gettid();
    match trapno {
        TRAP_XM => {
            let mx = (*fp).mxcsr;
            if !stepping_already {
                // (While stepping, the masks we set ourselves are in the context.)
                fpenv::observe(Where::Handler, mx, (*fp).cwd);
            }
            let pending = mx_pending(mx);
            // The kernel ranks invalid, divide-by-zero and overflow first: those are the
            // program's (it unmasked them), whatever stale flags are also set.
            if pending & (MX_IE | MX_ZE | MX_OE) != 0 {
                return false;
            }
            let armed = armed_mx_masks();
            let (flag, mask, result) = if pending & MX_DE != 0 && armed & MX_DM != 0 {
                (MX_DE, MX_DM, false)
            } else if pending & MX_UE != 0
                && armed & MX_UM != 0
                && !fpenv::program_wants_underflow()
            {
                (MX_UE, MX_UM, true)
            } else {
                return false;
            };
            let rip = gregs[libc::REG_RIP as usize] as u64;
            let batch = if sampling::sampled() {
                match sampling::take(tid) {
                    Take::Sample(b) => b,
                    Take::Last(b) => {
                        // The window is full: count, mask everything we unmask and let
                        // the instruction run masked (no step, one signal). If this is
                        // the second exception of a step, the SIGTRAP handler sees the
                        // window closed and leaves the masks.
                        table::record_sample(rip, result, b);
                        (*fp).mxcsr = (mx | armed_mx_masks()) & !flag;
                        return true;
                    }
                    Take::Stray => {
                        (*fp).mxcsr = (mx | armed_mx_masks()) & !flag;
                        return true;
                    }
                }
            } else {
                NO_BATCH
            };
            // One signal instead of two: run the instruction here, masked, when it is a
            // register-to-register SSE operation (`emulate`); else step it.
            if !result
                && !stepping_already
                && crate::options::emulate()
                && !crate::options::underflow()
                && emulate::try_emulate(uc, mx)
            {
                table::record_sample(rip, result, batch);
                EMULATED.fetch_add(1, Relaxed);
                return true;
            }
            let Some(slot) = slot_for(tid, stepping_already, uc) else {
                // No slot: keep the program correct, lose the rest of this thread's
                // profile for this exception.
                table::record_sample(rip, result, batch);
                GAVE_UP.fetch_add(1, Relaxed);
                (*fp).mxcsr = (mx | mask) & !flag;
                return true;
            };
            table::record_sample(rip, result, batch);
            slot.step().mx_masked |= mask;
            (*fp).mxcsr = (mx | mask) & !flag;
            gregs[libc::REG_EFL as usize] |= EFLAGS_TF;
            true
        }
        TRAP_MF => {
            let (cw, sw) = ((*fp).cwd, (*fp).swd);
            if x87::PROBE.load(core::sync::atomic::Ordering::Acquire) == 1 {
                // Start-up probe (x87::probe): record, mask, continue at the next
                // instruction; the probe restores the whole x87 state afterwards.
                x87::probe_trapped(sw);
                (*fp).cwd = cw | CW_DM;
                (*fp).swd = x87_fix_summary(cw | CW_DM, sw & !SW_DE);
                return true;
            }
            if !stepping_already {
                fpenv::observe(Where::Handler, (*fp).mxcsr, cw);
            }
            let pending = x87_pending(cw, sw);
            if pending & SW_DE == 0
                || pending & (SW_IE | SW_ZE | SW_OE | SW_UE | SW_PE) != 0
                || armed_cw_masks() & CW_DM == 0
            {
                return false;
            }
            let fip = (*fp).rip;
            let fdp = (*fp).rdp;
            let rip = gregs[libc::REG_RIP as usize] as u64;
            // Sampled mode: the abandoned instruction is replayed whether counted or
            // not; a full window (or none) leaves the x87 masked after it.
            let (counted, keep_armed) = if sampling::sampled() {
                match sampling::take(tid) {
                    Take::Sample(b) => (Some(b), true),
                    Take::Last(b) => (Some(b), false),
                    Take::Stray => (None, false),
                }
            } else {
                (Some(NO_BATCH), true)
            };
            if let Some(b) = counted {
                table::record_sample(fip, false, b);
            }
            let insn = if fip != 0 {
                x87::decode(fip as *const u8)
            } else {
                None
            };
            let plan = x87::plan(insn, fip, rip, fdp, gregs);
            if plan == Replay::Completed {
                // The load is done: clear the flag and go on, DM stays unmasked (masked
                // when a sampling window just closed).
                X87_COMPLETED.fetch_add(1, Relaxed);
                let ncw = if keep_armed { cw } else { cw | CW_DM };
                (*fp).cwd = ncw;
                (*fp).swd = x87_fix_summary(ncw, sw & !SW_DE);
                return true;
            }
            let Some(slot) = slot_for(tid, stepping_already, uc) else {
                // No slot to remember a step in (thousands of threads stepping at
                // once). The abandoned instruction must still run: rewind to it with
                // the x87 DM masked for good on this thread (no trap flag, so the
                // instructions between I1 and I2 run again — counted as unverified).
                GAVE_UP.fetch_add(1, Relaxed);
                X87_UNVERIFIED.fetch_add(1, Relaxed);
                if fip != 0 {
                    gregs[libc::REG_RIP as usize] = fip as i64;
                }
                (*fp).cwd = cw | CW_DM;
                (*fp).swd = x87_fix_summary(cw | CW_DM, sw & !SW_DE);
                return true;
            };
            let st: &mut Step = slot.step();
            match plan {
                Replay::Exact => {
                    X87_EXACT.fetch_add(1, Relaxed);
                }
                Replay::Adjust { reg, value } => {
                    X87_ADJUSTED.fetch_add(1, Relaxed);
                    if let Some(r) = gregs.get_mut(reg) {
                        st.reg = reg as i32;
                        st.reg_val = *r as u64;
                        *r = value as i64;
                    }
                }
                Replay::Unverified | Replay::Completed => {
                    X87_UNVERIFIED.fetch_add(1, Relaxed);
                }
            }
            if fip != 0 {
                // Continue at I2 after the replay, even when I2 is I1 itself (a loop
                // whose next iteration reached the same instruction first): the
                // instructions in between have run already.
                st.resume_rip = rip;
                gregs[libc::REG_RIP as usize] = fip as i64;
            }
            st.cw_masked |= CW_DM;
            let ncw = cw | CW_DM;
            (*fp).cwd = ncw;
            (*fp).swd = x87_fix_summary(ncw, sw & !SW_DE);
            gregs[libc::REG_EFL as usize] |= EFLAGS_TF;
            true
        }
        _ => false,
    }
}

/// The thread's stepping slot: the one it holds if it is already stepping (a second
/// exception on the instruction being stepped), else a new one, initialized with the
/// context's signal mask (which is then replaced by the step mask).
unsafe fn slot_for(
    tid: i32,
    stepping_already: bool,
    uc: *mut libc::ucontext_t,
) -> Option<&'static steps::Slot> {
    if stepping_already {
        if let Some(s) = steps::find(tid) {
            return Some(s);
        }
    }
    let s = steps::claim(tid)?;
    let w = sigmask_word(uc);
    s.step().sigmask = *w;
    *w = step_mask(*w);
    Some(s)
}

/// SIGTRAP.
pub extern "C" fn on_trap(sig: c_int, info: *mut libc::siginfo_t, ctx: *mut c_void) {
    let saved = errno();
    // SAFETY: the kernel passes a valid ucontext.
    let ours = unsafe { handle_trap(ctx.cast()) };
    if !ours {
        forward(sig, info, ctx);
    }
    set_errno(saved);
}

unsafe fn handle_trap(uc: *mut libc::ucontext_t) -> bool {
    if uc.is_null() {
        return false;
    }
    let Some(slot) = steps::find(gettid()) else {
        return false;
    };
    let st = *slot.step();
    let gregs = &mut (*uc).uc_mcontext.gregs;
    let fp = (*uc).uc_mcontext.fpregs;
    // Sampled mode: unmask again only while the thread's window is open.
    let rearm = !sampling::sampled() || sampling::window_open(slot.tid());
    if !fp.is_null() {
        if st.mx_masked != 0 {
            // The replayed instruction set DE again (masked); clear it so a stale DE is
            // never taken for a new one. UE is left as the instruction set it: that is
            // what the program would see without us (fetestexcept(FE_UNDERFLOW)).
            let unmask = if rearm { st.mx_masked } else { 0 };
            (*fp).mxcsr = (*fp).mxcsr & !unmask & !MX_DE;
        }
        if st.cw_masked != 0 {
            let unmask = if rearm { st.cw_masked } else { 0 };
            let cw = (*fp).cwd & !unmask;
            (*fp).cwd = cw;
            // An x87 flag set while unmasked is a pending exception: clear DE.
            (*fp).swd = x87_fix_summary(cw, (*fp).swd & !SW_DE);
        }
        fpenv::observe(Where::Handler, (*fp).mxcsr, (*fp).cwd);
    }
    if st.reg >= 0 {
        if let Some(r) = gregs.get_mut(st.reg as usize) {
            *r = st.reg_val as i64;
        }
    }
    if st.resume_rip != 0 {
        gregs[libc::REG_RIP as usize] = st.resume_rip as i64;
    }
    gregs[libc::REG_EFL as usize] &= !EFLAGS_TF;
    *sigmask_word(uc) = st.sigmask;
    slot.release();
    true
}

/// The fatal signals (and SIGFPE/SIGTRAP that are not ours).
pub extern "C" fn on_fatal(sig: c_int, info: *mut libc::siginfo_t, ctx: *mut c_void) {
    let saved = errno();
    forward(sig, info, ctx);
    set_errno(saved);
}

/// Synchronous: raised by the CPU for the instruction (SIGSEGV, SIGFPE, ...), as opposed
/// to sent by a process. The kernel never lets such a signal be ignored.
fn synchronous(info: *mut libc::siginfo_t) -> bool {
    // SAFETY: the kernel's siginfo, when non-null.
    !info.is_null() && unsafe { (*info).si_code } > 0
}

/// Delivers `sig` the way the program asked for.
fn forward(sig: c_int, info: *mut libc::siginfo_t, ctx: *mut c_void) {
    let a = disp::read(sig);
    match a.handler {
        libc::SIG_IGN if !synchronous(info) => {}
        libc::SIG_DFL | libc::SIG_IGN => die(sig),
        h => {
            if a.flags & libc::SA_RESETHAND != 0 {
                disp::reset_to_default(sig);
            }
            if a.flags & libc::SA_SIGINFO != 0 {
                // SAFETY: the program registered this function as an sa_sigaction.
                let f = unsafe {
                    core::mem::transmute::<
                        usize,
                        extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void),
                    >(h)
                };
                f(sig, info, ctx);
            } else {
                // SAFETY: the program registered this function as an sa_handler.
                let f = unsafe { core::mem::transmute::<usize, extern "C" fn(c_int)>(h) };
                f(sig);
            }
        }
    }
}

/// The default action of every signal we manage is to end the process: write the raw
/// report, restore the default action and re-raise, so the process dies of `sig`.
fn die(sig: c_int) {
    report::final_report(report::Exit::Signal(sig));
    // SAFETY: resetting to the default action and sending the signal to this thread.
    // The signal is blocked while its handler runs, so it is delivered (with the
    // default action) when we return; for a fault, the faulting instruction would also
    // simply fault again.
    unsafe {
        let mut sa: libc::sigaction = core::mem::zeroed();
        sa.sa_sigaction = libc::SIG_DFL;
        libc::sigemptyset(&mut sa.sa_mask);
        real::sigaction(sig, &sa, null_mut());
        libc::syscall(libc::SYS_tgkill, getpid(), gettid(), sig);
        // If the signal was not blocked (SA_NODEFER), we are dead already. Otherwise
        // make sure it is not blocked by the mask restored at return.
        let mut set: libc::sigset_t = core::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, sig);
        real::pthread_sigmask(libc::SIG_UNBLOCK, &set, null_mut());
    }
}

/// Installs our handler for `sig` in the kernel, with the program's mask and flags for
/// it (so what is blocked while its handler runs, and whether system calls restart,
/// stay as the program asked). SIG_IGN of a fatal signal is installed as SIG_IGN
/// (kept across `exec`, as without us).
pub fn install(sig: c_int, prog: &disp::Action) -> c_int {
    // SAFETY: sigaction with a valid, fully initialized struct.
    unsafe {
        let mut sa = prog.to_sigaction();
        if prog.handler == libc::SIG_IGN && sig != libc::SIGFPE && sig != libc::SIGTRAP {
            sa.sa_sigaction = libc::SIG_IGN;
            sa.sa_flags = 0;
            return real::sigaction(sig, &sa, null_mut());
        }
        sa.sa_sigaction = match sig {
            libc::SIGFPE => on_fpe as *const () as usize,
            libc::SIGTRAP => on_trap as *const () as usize,
            _ => on_fatal as *const () as usize,
        };
        let keep = if prog.handler == libc::SIG_DFL || prog.handler == libc::SIG_IGN {
            libc::SA_RESTART
        } else {
            prog.flags & (libc::SA_RESTART | libc::SA_NODEFER)
        };
        sa.sa_flags = keep | libc::SA_SIGINFO | libc::SA_ONSTACK;
        if sig == libc::SIGFPE || sig == libc::SIGTRAP {
            // Our own handlers must never wait for each other.
            libc::sigdelset(&mut sa.sa_mask, libc::SIGFPE);
            libc::sigdelset(&mut sa.sa_mask, libc::SIGTRAP);
            // A sampling tick must not open a window in our handler's own context.
            let tick = sampling::tick_signal();
            if tick > 0 {
                libc::sigaddset(&mut sa.sa_mask, tick);
            }
        }
        real::sigaction(sig, &sa, null_mut())
    }
}
