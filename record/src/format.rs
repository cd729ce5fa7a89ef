//! The constants of the format and the plain structs the writer takes and the reader
//! returns (layout drawn in the crate root, specified in `docs/internal/record.md`).
//!
//! Every struct here is a plain value: indices and string ids instead of pointers, no
//! `#[repr(C)]` (the byte layout is written field by field, little-endian, never by
//! transmuting), `Copy`. The runtime fills them from its descriptors and trees.

/// "No index": a missing string, site, function, loop or parent.
pub const NONE: u32 = u32::MAX;

/// The first 8 bytes of every record: a non-ASCII byte (so the file is never taken for
/// text), `TPREC`, and CR LF (so a text-mode transfer that rewrites line ends shows).
pub const MAGIC: [u8; 8] = *b"\x89TPREC\r\n";
/// Format major version: a reader refuses records with a newer one.
pub const VERSION_MAJOR: u16 = 1;
/// Format minor version: additions an older reader of the same major version skips
/// (new sections, new record tags, fields appended to a record's body, flags in a field
/// that was reserved). 1: `PARAM` flags ([`PARAM_VALUE_CHANGED`]) and values, `BUILD_ID`
/// written by the runtime.
pub const VERSION_MINOR: u16 = 1;
/// The byte-order marker, written little-endian (`0d 0c 0b 0a`). Every integer of a
/// record is little-endian; a big-endian writer would have to swap, and a reader that
/// sees `0a 0b 0c 0d` knows one did not.
pub const BYTE_ORDER_MARK: u32 = 0x0a0b_0c0d;
/// Bytes of the file header: magic, major, minor, byte-order marker.
pub const HEADER_LEN: usize = 16;

/// Largest record body the format allows (the length is a ULEB128 of at most 5 bytes).
pub const MAX_BODY: usize = u32::MAX as usize;

// ---- Structural tags (valid everywhere) -------------------------------------------

/// Never written: zero-filled bytes read as a record are corrupt, not empty.
pub const TAG_INVALID: u8 = 0x00;
/// Opens a section: `kind u16, reserved u16, ordinal u32`.
pub const TAG_BEGIN: u8 = 0x01;
/// Closes the open section: `records u64` (records between its BEGIN and this END).
pub const TAG_END: u8 = 0x02;
/// First tag a section kind may define for its own records.
pub const TAG_FIRST_LOCAL: u8 = 0x10;
/// `key_len u32, key, value` (rest of the body): a named value in the RUN and TRAILER
/// sections (options, environment the analysis depends on, an MPI rank).
pub const TAG_ATTR: u8 = 0x1f;

// ---- Section kinds ----------------------------------------------------------------

/// Kind of a section (the `kind` of its BEGIN record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SectionKind {
    /// Program identity: pid, name, path, argv, versions. First in every record.
    Run,
    /// One instrumented module (translation unit): its strings and descriptor tables.
    Module,
    /// Registered and refused parameters, and the layout of label bits.
    Params,
    /// One thread's calling-context tree with its loop records.
    Thread,
    /// Loops that had not ended when the record was written.
    InFlight,
    /// The branch records (shared by all threads).
    Branches,
    /// Exit kind, options, warnings. Last: its END completes the record.
    Trailer,
    /// A kind this version does not know (skipped by the reader).
    Unknown(u16),
}

impl SectionKind {
    /// The `kind` field of the BEGIN record.
    pub const fn code(self) -> u16 {
        match self {
            SectionKind::Run => 1,
            SectionKind::Module => 2,
            SectionKind::Params => 3,
            SectionKind::Thread => 4,
            SectionKind::InFlight => 5,
            SectionKind::Branches => 6,
            SectionKind::Trailer => 7,
            SectionKind::Unknown(k) => k,
        }
    }

    /// The kind of a BEGIN record's `kind` field.
    pub const fn from_code(k: u16) -> SectionKind {
        match k {
            1 => SectionKind::Run,
            2 => SectionKind::Module,
            3 => SectionKind::Params,
            4 => SectionKind::Thread,
            5 => SectionKind::InFlight,
            6 => SectionKind::Branches,
            7 => SectionKind::Trailer,
            k => SectionKind::Unknown(k),
        }
    }

    /// Lower-case name for messages.
    pub const fn name(self) -> &'static str {
        match self {
            SectionKind::Run => "run",
            SectionKind::Module => "module",
            SectionKind::Params => "params",
            SectionKind::Thread => "thread",
            SectionKind::InFlight => "in-flight",
            SectionKind::Branches => "branches",
            SectionKind::Trailer => "trailer",
            SectionKind::Unknown(_) => "unknown",
        }
    }
}

// ---- Section-local tags -------------------------------------------------------------

/// RUN: `pid i32, abi_version u32, mode u16, reserved u16, start_time_ns u64`.
pub const TAG_RUN_INFO: u8 = 0x10;
/// RUN: the program's name (basename of `/proc/self/exe`).
pub const TAG_RUN_NAME: u8 = 0x11;
/// RUN: the executable's path.
pub const TAG_RUN_PATH: u8 = 0x12;
/// RUN: one argument, repeated in `argv` order.
pub const TAG_RUN_ARG: u8 = 0x13;
/// RUN: the taintprof version that wrote the record.
pub const TAG_RUN_VERSION: u8 = 0x14;

/// MODULE: `flags u32, abi_version u32` (first record of the section).
pub const TAG_MOD_INFO: u8 = 0x10;
/// MODULE: the module's source file (`ModuleDesc::source_file`).
pub const TAG_MOD_SOURCE: u8 = 0x11;
/// MODULE: path of the ELF object (executable or shared library) the module is in.
pub const TAG_MOD_OBJECT: u8 = 0x12;
/// MODULE: that object's GNU build id.
pub const TAG_MOD_BUILD_ID: u8 = 0x13;
/// MODULE: one string; ids count from 0 in order of appearance in the section.
pub const TAG_STR: u8 = 0x14;
/// MODULE: a function: `Loc` (24 bytes), `flags u32, n_loops u32`.
pub const TAG_FUNC: u8 = 0x15;
/// MODULE: a loop: `flags u32, n_chain u32, const_trip_count u64, parent u32, func u32,
/// routine str, cost str`, then `n_chain` `Loc`s.
pub const TAG_LOOP: u8 = 0x16;
/// MODULE: a site: `flags u32, n_chain u32, loop u32`, then `n_chain` `Loc`s.
pub const TAG_SITE: u8 = 0x17;
/// MODULE: a branch: `flags u16, reserved u16, site u32, n_succ u32`, then `n_succ`
/// site ids (`u32`).
pub const TAG_BRANCH: u8 = 0x18;

/// PARAMS: `shift u16, flags u16`, then the name of the parameter whose registration
/// turned the control-flow split off (empty if none did).
pub const TAG_LABEL_LAYOUT: u8 = 0x10;
/// PARAMS: `bit u32, registrations u32, value_kind u16, reserved u16, value u64`, name.
pub const TAG_PARAM: u8 = 0x11;
/// PARAMS: `reason u16, reserved u16, count u32`, name (printable form).
pub const TAG_REJECTED: u8 = 0x12;

/// THREAD: `tid i32, index u32, flags u32` (first record of the section).
pub const TAG_THREAD_INFO: u8 = 0x10;
/// THREAD: a calling-context node: `parent u32, site u32, func u32`.
pub const TAG_NODE: u8 = 0x11;
/// THREAD: a loop record of the last NODE: `loop u32, label u16, flags u16,
/// executions u64`.
pub const TAG_LOOP_REC: u8 = 0x12;
/// THREAD: a recursive call folded onto an ancestor: `node u32, site u32, func u32`.
pub const TAG_FOLDED: u8 = 0x13;
/// THREAD: a function found on its own call path: `func u32`.
pub const TAG_RECURSIVE: u8 = 0x14;

/// IN-FLIGHT: `thread u32, depth u32, node u32, loop u32, label u16, reserved u16`.
pub const TAG_INFLIGHT: u8 = 0x10;

/// BRANCHES: `branch u32, label u16, flags u16, taken u64, executions u64`.
pub const TAG_BRANCH_STATE: u8 = 0x10;

/// TRAILER: `kind u16, reserved u16, code i32`.
pub const TAG_EXIT: u8 = 0x10;
/// TRAILER: `code u32, reserved u32, value u64`, text.
pub const TAG_WARNING: u8 = 0x11;

// ---- Fixed body sizes ---------------------------------------------------------------

/// Bytes of a [`Loc`].
pub const LOC_LEN: usize = 24;
// Bodies of the fixed-size records, and the fixed part (before the name, chain or list)
// of the others. A reader accepts longer bodies (fields appended by a later minor
// version) and refuses shorter ones.
pub const BEGIN_LEN: usize = 8;
pub const END_LEN: usize = 8;
pub const RUN_INFO_LEN: usize = 20;
pub const MOD_INFO_LEN: usize = 8;
pub const FUNC_LEN: usize = LOC_LEN + 8;
pub const LOOP_FIXED_LEN: usize = 32;
pub const SITE_FIXED_LEN: usize = 12;
pub const BRANCH_FIXED_LEN: usize = 12;
pub const LAYOUT_FIXED_LEN: usize = 4;
pub const PARAM_FIXED_LEN: usize = 20;
pub const REJECTED_FIXED_LEN: usize = 8;
pub const THREAD_INFO_LEN: usize = 12;
/// Body of a NODE record; the record is 2 bytes more (tag, length).
pub const NODE_LEN: usize = 12;
/// Body of a LOOP_REC record; the record is 2 bytes more (tag, length).
pub const LOOP_REC_LEN: usize = 16;
pub const FOLDED_LEN: usize = 12;
pub const RECURSIVE_LEN: usize = 4;
pub const INFLIGHT_LEN: usize = 20;
pub const BRANCH_STATE_LEN: usize = 24;
pub const EXIT_LEN: usize = 8;
pub const WARNING_FIXED_LEN: usize = 16;
pub const ATTR_FIXED_LEN: usize = 4;

// ---- Flags and codes ----------------------------------------------------------------

/// `RunInfo::mode`: taint mode (`libtaintprof_rt` with taint modules).
pub const MODE_TAINT: u16 = 1;
/// `RunInfo::mode`: denormal mode (reserved: a denormal-mode process writes the
/// denormal record instead, [`crate::denormal`]).
pub const MODE_DENORMAL: u16 = 2;

/// `LabelLayout::flags`: the split was on at start-up and a ninth registration turned it
/// off (labels made before may carry twin bits that now read as parameters 9 to 16).
pub const LAYOUT_SPLIT_GIVEN_UP: u16 = 1 << 0;

/// `ParamInfo::flags`: a later registration of the parameter read another value than
/// the first (whose value the record keeps), or none.
pub const PARAM_VALUE_CHANGED: u16 = 1 << 0;

/// `ParamInfo::flags`: an *implicit* parameter, registered by the runtime rather than by
/// the program: `p`, the size of `MPI_COMM_WORLD` (from `MPI_Comm_size` through the MPI
/// interception library), or the OpenMP thread count. Readers that predate it see an
/// ordinary parameter.
pub const PARAM_IMPLICIT: u16 = 1 << 1;

/// `ThreadInfo::flags`: the thread was still running when the record was written.
pub const THREAD_ALIVE: u32 = 1 << 0;

/// Kinds of exit in the trailer's EXIT record.
pub const EXIT_NORMAL: u16 = 1;
/// Killed by a signal (`code` = signal number; SIGTERM is 15, the batch system's limit).
pub const EXIT_SIGNAL: u16 = 2;
/// `_exit`, `_Exit`, `quick_exit`: no exit handlers ran (`code` = status).
pub const EXIT_IMMEDIATE: u16 = 3;
/// Before an `exec` replaced the program.
pub const EXIT_EXEC: u16 = 4;
/// Written while the program was still running (`tp_write_report`).
pub const EXIT_RUNNING: u16 = 5;

/// Warning: some thread ran out of memory for its context tree; loop executions were
/// dropped (the runtime's `context::out_of_memory`).
pub const WARN_CONTEXT_OOM: u32 = 1;
/// Warning: the runtime ran out of scratch memory while writing; the record is
/// incomplete (`value`: what was skipped, if known).
pub const WARN_WRITER_OOM: u32 = 2;
/// Warning: a module was refused at registration (`value`: its ABI version, 0 for a
/// bad magic number; text: its source file).
pub const WARN_REJECTED_MODULE: u32 = 3;
/// Warning: taint and denormal modules in one program (text: the two sources).
pub const WARN_MIXED_MODES: u32 = 4;
/// Warning: nodes of functions of unregistered modules, skipped with their subtrees
/// (`value`: how many).
pub const WARN_UNKNOWN_CONTEXTS: u32 = 5;
/// Warning: loop records of loops of unregistered modules, skipped (`value`).
pub const WARN_UNKNOWN_LOOPS: u32 = 6;
/// Warning: written by the writer itself when it refused records (indices out of range,
/// a record outside its section): `value` = how many. A runtime bug, never expected.
pub const WARN_WRITER_REFUSED: u32 = 7;

/// Why a registration was refused (the runtime's `params::Reject`).
pub const REJECT_TOO_MANY: u16 = 1;
pub const REJECT_NULL_NAME: u16 = 2;
pub const REJECT_EMPTY_NAME: u16 = 3;
pub const REJECT_NAME_TOO_LONG: u16 = 4;
pub const REJECT_BAD_CHARACTER: u16 = 5;
pub const REJECT_NULL_ADDRESS: u16 = 6;
pub const REJECT_ZERO_SIZE: u16 = 7;
pub const REJECT_BAD_RANGE: u16 = 8;

// ---- Plain structs --------------------------------------------------------------------

/// A source position (the runtime's `SrcLoc`) with its strings as ids of the module's
/// string table ([`NONE`] = empty).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Loc {
    /// Source-level function name.
    pub function: u32,
    /// Linkage name.
    pub linkage: u32,
    pub file: u32,
    /// Line of the function's definition.
    pub fn_line: u32,
    pub line: u32,
    pub column: u32,
}

/// The program and its process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunInfo {
    pub pid: i32,
    /// `taintprof_abi::ABI_VERSION` of the runtime.
    pub abi_version: u32,
    /// [`MODE_TAINT`] or [`MODE_DENORMAL`].
    pub mode: u16,
    /// Wall-clock time at start-up, ns since the Unix epoch (0 = unknown).
    pub start_time_ns: u64,
}

/// The fixed part of a module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModuleInfo {
    /// `MODULE_*` flags of `taintprof_abi`.
    pub flags: u32,
    /// The ABI version the module was built for.
    pub abi_version: u32,
}

/// A function of a module (`FuncDesc`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Func {
    pub loc: Loc,
    /// `FUNC_*` flags.
    pub flags: u32,
    pub n_loops: u32,
}

/// A loop of a module (`LoopDesc`); its inline chain is passed beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Loop {
    /// `LOOP_*` flags.
    pub flags: u32,
    /// 0 = unknown.
    pub const_trip_count: u64,
    /// Enclosing loop, index in this module's loops ([`NONE`]).
    pub parent: u32,
    /// Physical function, index in this module's functions ([`NONE`]).
    pub func: u32,
    /// Library loops: routine name and cost (string ids, [`NONE`] = empty).
    pub routine: u32,
    pub cost: u32,
}

impl Default for Loop {
    fn default() -> Self {
        Loop {
            flags: 0,
            const_trip_count: 0,
            parent: NONE,
            func: NONE,
            routine: NONE,
            cost: NONE,
        }
    }
}

/// A call or branch position (`SiteDesc`); its inline chain is passed beside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Site {
    /// `SiteDesc::flags`.
    pub flags: u32,
    /// Innermost loop of the physical function around it, index in this module's loops
    /// ([`NONE`]).
    pub loop_: u32,
}

impl Default for Site {
    fn default() -> Self {
        Site {
            flags: 0,
            loop_: NONE,
        }
    }
}

/// A branch of a module (the static half of `BranchRec`); its successors' sites are
/// passed beside it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Branch {
    /// `BRANCH_*` flags.
    pub flags: u16,
    /// The branch's position, index in this module's sites.
    pub site: u32,
}

/// How label bits map to parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabelLayout {
    /// 0: bit `p` is parameter `p`. 8 (`CTRL_SPLIT_SHIFT`): bit `p` is parameter `p`
    /// through data flow, bit `p + 8` the same parameter through control flow only.
    pub shift: u16,
    /// [`LAYOUT_SPLIT_GIVEN_UP`].
    pub flags: u16,
}

/// A registered parameter's value, when the runtime read it at registration.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Value {
    #[default]
    None,
    Int(i64),
    Uint(u64),
    Float(f64),
}

impl Value {
    /// `(value_kind, value)` as in the PARAM record (0 none, 1 signed, 2 unsigned,
    /// 3 `f64` bits).
    pub fn encode(self) -> (u16, u64) {
        match self {
            Value::None => (0, 0),
            Value::Int(v) => (1, v as u64),
            Value::Uint(v) => (2, v),
            Value::Float(v) => (3, v.to_bits()),
        }
    }

    /// The value of a PARAM record's `(value_kind, value)`; unknown kinds are `None`.
    pub fn decode(kind: u16, bits: u64) -> Value {
        match kind {
            1 => Value::Int(bits as i64),
            2 => Value::Uint(bits),
            3 => Value::Float(f64::from_bits(bits)),
            _ => Value::None,
        }
    }
}

/// A registered parameter; its name is passed beside it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ParamInfo {
    /// Label bit (= registration order).
    pub bit: u32,
    /// Times the name was registered.
    pub registrations: u32,
    /// [`PARAM_VALUE_CHANGED`], [`PARAM_IMPLICIT`] (written where format 1.0 had a
    /// reserved `u16`: 0).
    pub flags: u16,
    /// The value its first registration read.
    pub value: Value,
}

/// A refused registration; its printable name is passed beside it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RejectedInfo {
    /// `REJECT_*`.
    pub reason: u16,
    /// Times it was refused.
    pub count: u32,
}

/// The fixed part of a thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreadInfo {
    /// Kernel thread id.
    pub tid: i32,
    /// Order of creation (0 = first thread that ran instrumented code).
    pub index: u32,
    /// [`THREAD_ALIVE`].
    pub flags: u32,
}

/// A calling-context node. Node 0 of a thread is its root (all [`NONE`]); every other
/// node's parent has a smaller index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// Index of the parent in this thread ([`NONE`] for the root).
    pub parent: u32,
    /// Global site index of the call in the parent ([`NONE`]: none, as under the root).
    pub site: u32,
    /// Global function index ([`NONE`] only for the root).
    pub func: u32,
}

impl Node {
    /// The root of a thread's tree.
    pub const ROOT: Node = Node {
        parent: NONE,
        site: NONE,
        func: NONE,
    };
}

/// One loop of one calling context: what `__tp_loop_exit` accumulated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LoopRecord {
    /// Global loop index.
    pub loop_: u32,
    /// Union of the exit-condition labels (raw: see [`LabelLayout`]).
    pub label: u16,
    /// Reserved (0).
    pub flags: u16,
    pub executions: u64,
}

/// A call of `func` at `site` in `node` that the runtime folded onto the nearest
/// ancestor-or-self of `node` running `func` (recursion).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Folded {
    /// Index of the calling node in this thread.
    pub node: u32,
    /// Global site index ([`NONE`]).
    pub site: u32,
    /// Global function index.
    pub func: u32,
}

/// One entry of a thread's loops-in-flight stack (`InFlightLoop`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InFlight {
    /// Which thread: the ordinal of its THREAD section among this record's threads.
    pub thread: u32,
    /// Position in the thread's stack (0 = outermost).
    pub depth: u32,
    /// Node index in that thread.
    pub node: u32,
    /// Global loop index.
    pub loop_: u32,
    /// Labels its exit tests had seen so far (raw).
    pub label: u16,
}

/// The dynamic half of a `BranchRec`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BranchState {
    /// Global branch index.
    pub branch: u32,
    /// Union of the condition labels (raw).
    pub label: u16,
    /// Reserved (0).
    pub flags: u16,
    /// Bit `i`: successor `i` was taken.
    pub taken: u64,
    /// Approximate under contention (relaxed counter).
    pub executions: u64,
}

/// How the run ended (or why the record was written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `exit(status)` or a return from `main`.
    Normal(i32),
    /// Killed by this signal (15 = SIGTERM).
    Signal(i32),
    /// `_exit(status)`, `_Exit`, `quick_exit`.
    Immediate(i32),
    /// Before an `exec`.
    Exec,
    /// Mid-run (`tp_write_report`).
    Running,
    /// A kind this version does not know: (kind, code).
    Unknown(u16, i32),
}

impl Exit {
    /// `(kind, code)` as in the EXIT record.
    pub fn encode(self) -> (u16, i32) {
        match self {
            Exit::Normal(c) => (EXIT_NORMAL, c),
            Exit::Signal(s) => (EXIT_SIGNAL, s),
            Exit::Immediate(c) => (EXIT_IMMEDIATE, c),
            Exit::Exec => (EXIT_EXEC, 0),
            Exit::Running => (EXIT_RUNNING, 0),
            Exit::Unknown(k, c) => (k, c),
        }
    }

    /// The exit of an EXIT record's `(kind, code)`.
    pub fn decode(kind: u16, code: i32) -> Exit {
        match kind {
            EXIT_NORMAL => Exit::Normal(code),
            EXIT_SIGNAL => Exit::Signal(code),
            EXIT_IMMEDIATE => Exit::Immediate(code),
            EXIT_EXEC => Exit::Exec,
            EXIT_RUNNING => Exit::Running,
            k => Exit::Unknown(k, code),
        }
    }
}

/// The fixed part of a warning; its text is passed beside it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Warning {
    /// `WARN_*` (unknown codes are kept and shown by their text).
    pub code: u32,
    pub value: u64,
}
