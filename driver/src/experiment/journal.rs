//! The journal of an experiment (`DIR/journal.jsonl`): one JSON line per finished
//! repetition (its point, its number, whether it succeeded, its metrics), appended and
//! `fsync`ed before the next run starts, so that a killed experiment loses at most the
//! run in progress.
//!
//! Reading it back: a last line without its newline (the process was killed while
//! writing it) is ignored and cut off before anything is appended; a damaged line
//! elsewhere is reported and ignored (its run is made again). The last line of a
//! (point, repetition) counts: a run that failed and was made again successfully is a
//! success.

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// One metric of one call path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Metric {
    pub callpath: String,
    pub metric: String,
    pub value: f64,
}

/// One finished repetition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The point's values, in the plan's parameter order.
    pub point: Vec<String>,
    /// 1-based.
    pub rep: u32,
    /// `ok` or `failed`.
    pub status: String,
    /// Wall time of the command.
    pub seconds: f64,
    /// Why it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The measurements (successful runs).
    #[serde(default)]
    pub metrics: Vec<Metric>,
}

impl Entry {
    pub fn ok(&self) -> bool {
        self.status == "ok"
    }
}

/// The journal file, open for appending.
pub struct Journal {
    path: PathBuf,
    file: Option<std::fs::File>,
}

/// What was read from an existing journal.
pub struct Read {
    /// The entries in file order.
    pub entries: Vec<Entry>,
    /// Lines that could not be read (1-based numbers), torn last line excluded.
    pub damaged: Vec<usize>,
    /// Whether a torn last line was cut off.
    pub torn: bool,
}

impl Journal {
    /// Reads the journal at `path` (empty if there is none) and makes it ready for
    /// appending: a torn last line is cut off.
    pub fn open(path: &Path) -> Result<(Journal, Read), String> {
        let mut read = Read {
            entries: Vec::new(),
            damaged: Vec::new(),
            torn: false,
        };
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        // Everything up to the last newline is complete lines.
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if complete < bytes.len() {
            read.torn = true;
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
            f.set_len(complete as u64)
                .and_then(|()| f.sync_data())
                .map_err(|e| format!("cannot repair {}: {e}", path.display()))?;
        }
        for (k, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<Entry>(line) {
                Ok(e) => read.entries.push(e),
                Err(_) => read.damaged.push(k + 1),
            }
        }
        Ok((
            Journal {
                path: path.to_path_buf(),
                file: None,
            },
            read,
        ))
    }

    /// Appends `e` as one line and waits until it is on disk.
    pub fn append(&mut self, e: &Entry) -> Result<(), String> {
        let err = |x: std::io::Error| format!("cannot write {}: {x}", self.path.display());
        if self.file.is_none() {
            self.file = Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&self.path)
                    .map_err(err)?,
            );
        }
        let mut line = serde_json::to_string(e).expect("an entry is strings and numbers");
        line.push('\n');
        let f = self.file.as_mut().expect("opened above");
        f.write_all(line.as_bytes())
            .and_then(|()| f.sync_data())
            .map_err(|x| format!("cannot write {}: {x}", self.path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(p: &str, rep: u32) -> Entry {
        Entry {
            point: vec![p.to_string()],
            rep,
            status: "ok".into(),
            seconds: 0.5,
            error: None,
            metrics: vec![Metric {
                callpath: "app".into(),
                metric: "time".into(),
                value: 0.5,
            }],
        }
    }

    #[test]
    fn torn_last_line_is_cut_and_ignored() {
        let dir = std::env::temp_dir().join(format!("tp-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("journal.jsonl");
        let _ = std::fs::remove_file(&path);
        let (mut j, r) = Journal::open(&path).unwrap();
        assert!(r.entries.is_empty());
        j.append(&entry("1", 1)).unwrap();
        j.append(&entry("2", 1)).unwrap();
        drop(j);
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(br#"{"point":["3"],"rep":1,"sta"#).unwrap();
        drop(f);
        let (mut j, r) = Journal::open(&path).unwrap();
        assert!(r.torn);
        assert_eq!(r.entries, vec![entry("1", 1), entry("2", 1)]);
        j.append(&entry("3", 1)).unwrap();
        let (_, r) = Journal::open(&path).unwrap();
        assert!(!r.torn && r.damaged.is_empty());
        assert_eq!(r.entries.len(), 3);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
