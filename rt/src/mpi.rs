//! Implicit parameters: `p`, the size of `MPI_COMM_WORLD`, and the OpenMP thread count.
//!
//! The paper models the process count `p` beside the problem size. Its value is what
//! `MPI_Comm_size(MPI_COMM_WORLD, &size)` returns, and its label sits on those bytes.
//! The runtime itself knows nothing of MPI (it links into every program, MPI or not):
//! the MPI interception library (`mpi/taintprof_mpi.c`, compiled against the program's
//! own `mpi.h` when `taintprof-cc` links an MPI program) calls [`__tp_implicit_p`] from
//! its `MPI_Comm_size`. Everything else the MPI library needs from the runtime is the
//! shadow interface of [`crate::shadow`] (`__tp_shadow_union`, `__tp_shadow_set`).
//!
//! An implicit parameter is registered like any other (it takes one of the 16 bits, by
//! the same registry, in the order the program reaches it) and is flagged
//! `PARAM_IMPLICIT` in the record, so the report lists it as implicit.
//! `TAINTPROF_IMPLICIT_P=0` switches `p` off, `TAINTPROF_IMPLICIT_THREADS=1` switches
//! the thread count on ([`crate::options`]).
//!
//! Labels that cross processes in MPI messages are bits of the *sender's* registry. The
//! MPI library sends, beside them, the names of the parameters they hold
//! ([`__tp_param_name`]), and the receiver maps each name to its own bit
//! ([`__tp_param_intern`], registering the name if it has not seen it: rank 0 often
//! registers a parameter and broadcasts it). On the way, labels are folded to one bit
//! per parameter ([`__tp_label_params`]): the control-flow split's twin bits do not
//! cross processes, and what arrives counts as data flow.
//!
//! [`__tp_mpi_size_label`] holds `p`'s label for the pass: a call of a routine whose
//! database entry names a communicator (`comm=` in `rt/routines.txt`) ORs it into the
//! label of its library loop, since its cost depends on the process count.

use core::sync::atomic::{AtomicU16, Ordering::Relaxed};

use taintprof_abi::Label;

use crate::params::{read_value, REGISTRY};

/// The label of `p` once registered, else 0 (`taintprof_abi::GLOBAL_MPI_SIZE_LABEL`;
/// read by instrumented code, written once by [`__tp_implicit_p`]).
#[no_mangle]
pub static __tp_mpi_size_label: AtomicU16 = AtomicU16::new(0);

/// Registers the implicit parameter `name` on the `size` bytes at `addr` (which hold its
/// value) for the entry point `entry`, or clears their labels when `enabled` is false
/// (the bytes were written by uninstrumented code: their shadow is stale). The label, or
/// 0.
///
/// # Safety
/// `size` bytes at `addr` must be readable.
unsafe fn implicit(
    entry: &str,
    name: &'static [u8],
    addr: *mut libc::c_void,
    size: usize,
    enabled: bool,
) -> Label {
    if addr.is_null()
        || size == 0
        || crate::params::range_problem(addr as usize, size).is_some()
        || crate::denormal::mode::any_denormal()
    {
        // Nothing to label; or denormal mode, whose shadow holds tags, not labels.
        return 0;
    }
    let label = if enabled {
        // SAFETY: per the contract.
        let value = unsafe { read_value(addr, size) };
        match REGISTRY.register_from(entry, Some(name), value) {
            Ok(l) => {
                REGISTRY.mark_implicit(l);
                l
            }
            Err(_) => 0,
        }
    } else {
        0
    };
    // SAFETY: any address is valid for the shadow.
    unsafe { crate::shadow::set(addr as usize, label, size) };
    label
}

/// `uint16_t __tp_implicit_p(void *size, size_t n)`: the `n` bytes at `size` hold the
/// size of `MPI_COMM_WORLD` (just written by `PMPI_Comm_size`): label them with the
/// implicit parameter `p` (unless `TAINTPROF_IMPLICIT_P=0`). Returns the label.
///
/// # Safety
/// `n` bytes at `size` must be readable.
#[no_mangle]
pub unsafe extern "C" fn __tp_implicit_p(size: *mut libc::c_void, n: usize) -> Label {
    // SAFETY: forwarded contract.
    let l = unsafe { implicit("MPI_Comm_size", b"p", size, n, crate::options::implicit_p()) };
    if l != 0 {
        __tp_mpi_size_label.store(l, Relaxed);
    }
    l
}

/// `uint16_t __tp_implicit_threads(void *count, size_t n)`: the `n` bytes at `count`
/// hold the OpenMP thread count: label them with the implicit parameter `threads` when
/// `TAINTPROF_IMPLICIT_THREADS=1`, else clear them. Returns the label.
///
/// # Safety
/// `n` bytes at `count` must be readable.
#[no_mangle]
pub unsafe extern "C" fn __tp_implicit_threads(count: *mut libc::c_void, n: usize) -> Label {
    // SAFETY: forwarded contract.
    unsafe {
        implicit(
            "omp_get_num_threads",
            b"threads",
            count,
            n,
            crate::options::implicit_threads(),
        )
    }
}

/// `uint16_t __tp_label_params(uint16_t label)`: one bit per parameter (bit `j` =
/// parameter `j` of this process), the control-flow split's twin bits folded in.
#[no_mangle]
pub extern "C" fn __tp_label_params(label: Label) -> Label {
    crate::split::params(label)
}

/// `const char *__tp_param_name(int j, size_t *len)`: the name of parameter `j` of this
/// process (not NUL-terminated; `*len` bytes), or null if there is none.
///
/// # Safety
/// `len` must be writable.
#[no_mangle]
pub unsafe extern "C" fn __tp_param_name(j: libc::c_int, len: *mut usize) -> *const u8 {
    let Some(p) = usize::try_from(j).ok().and_then(|j| REGISTRY.get(j)) else {
        return core::ptr::null();
    };
    if !len.is_null() {
        // SAFETY: per the contract.
        unsafe { *len = p.name.len() };
    }
    p.name.as_ptr()
}

/// `uint16_t __tp_param_intern(const char *name, size_t len)`: this process's label of
/// parameter `name` (one data bit), registering the name without a value if it is new;
/// 0 if it cannot be registered (a 17th name).
///
/// # Safety
/// `len` bytes at `name` must be readable.
#[no_mangle]
pub unsafe extern "C" fn __tp_param_intern(name: *const u8, len: usize) -> Label {
    if name.is_null() || len == 0 {
        return 0;
    }
    // SAFETY: per the contract.
    let name = unsafe { core::slice::from_raw_parts(name, len) };
    REGISTRY.intern(name).unwrap_or(0)
}
