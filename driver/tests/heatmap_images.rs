//! The heatmap pictures of `taintprof denormals --html`, end to end: a program with one
//! hot element in a 1,000,000-element array is built in denormal mode, run, and drawn;
//! the element must show as a mark in its column, and the picture must have axes and a
//! colour legend.
//!
//! Needs `clang-19` and the workspace built (`cargo build --release --workspace`: the
//! pass plugin and the runtime next to `taintprof-cc`).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const TAINTPROF: &str = env!("CARGO_BIN_EXE_taintprof");
const CC: &str = env!("CARGO_BIN_EXE_taintprof-cc");

/// Element 500,700 of a 1,000,000-element array (folded to 1000 × 1000 by the runtime:
/// row 500, column 700) is written once with a denormal and read 1,000 times.
const PROGRAM: &str = r#"
#include <stdio.h>
#include <stdlib.h>

#define N 1000000

__attribute__((noinline)) float poke(float *a, long hot, int reps, float tiny) {
  float s = 0;
  a[hot] = tiny * 0.5f;
  for (int r = 0; r < reps; r++) {
    s += a[hot] * 2.0f;
    __asm__ volatile("" ::: "memory");
  }
  return s;
}

int main(int argc, char **argv) {
  long hot = argc > 1 ? atol(argv[1]) : 500700;
  volatile float tiny = 1e-39f;
  float *big = malloc(N * sizeof *big);
  for (int i = 0; i < N; i++) big[i] = 1.0f;
  float s = poke(big, hot, 1000, tiny);
  printf("%g %g\n", s, big[hot]);
  free(big);
  return 0;
}
"#;

const EMPTY_CELL: [u8; 3] = [24, 24, 32];
const INK: [u8; 3] = [25, 25, 30];

/// `<tmp>/taintprof-heat-<name>-<pid>`, kept for inspection; the next run removes it
/// once this process is gone.
fn tempdir(name: &str) -> PathBuf {
    common::scratch_dir("heat", name)
}

fn ok(out: Output, what: &str) -> Output {
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

struct Png {
    w: u32,
    h: u32,
    px: Vec<u8>,
}

impl Png {
    fn read(path: &Path) -> Png {
        let dec = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        ));
        let mut r = dec.read_info().unwrap();
        let mut px = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut px).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        px.truncate(info.buffer_size());
        Png {
            w: info.width,
            h: info.height,
            px,
        }
    }

    fn get(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.w + x) * 3) as usize;
        [self.px[i], self.px[i + 1], self.px[i + 2]]
    }
}

#[test]
fn a_single_hot_element_of_a_million_shows_with_axes_and_legend() {
    let dir = tempdir("hot");
    let src = dir.join("hot.c");
    std::fs::write(&src, PROGRAM).unwrap();
    let exe = dir.join("hot");
    let cc = Command::new(CC)
        .args(["-O2", "-g", "--tp-mode=denormal"])
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {CC}: {e}"));
    assert!(
        cc.status.success(),
        "taintprof-cc failed (it needs the clang-19 package and the workspace built: cargo build --release --workspace):\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    ok(
        Command::new(TAINTPROF)
            .args(["run", "--"])
            .arg(&exe)
            .current_dir(&dir)
            .output()
            .unwrap(),
        "taintprof run",
    );
    let report = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.to_string_lossy().ends_with(".denormal.json"))
        .unwrap_or_else(|| panic!("no denormal report in {}", dir.display()));
    ok(
        Command::new(TAINTPROF)
            .args(["denormals", "--html", "h"])
            .arg(&report)
            .current_dir(&dir)
            .output()
            .unwrap(),
        "taintprof denormals --html",
    );
    let pic = std::fs::read_dir(dir.join("h"))
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            let n = p.file_name().unwrap().to_string_lossy().into_owned();
            n.starts_with("heat-") && n.ends_with("-big.png")
        })
        .unwrap_or_else(|| panic!("no heatmap of `big` in {}/h", dir.display()));
    let img = Png::read(&pic);

    // The grid: the first row with a long run of empty cells (the runtime bins the
    // folded 1000 × 1000 layout into 250 × 250 cells of 4 × 4 elements).
    let (mut x0, mut y0, mut run) = (0, 0, 0);
    'find: for y in 0..img.h {
        let mut start = 0;
        for x in 0..img.w {
            if img.get(x, y) != EMPTY_CELL {
                start = x + 1;
            } else if x + 1 - start >= 200 {
                let mut end = x;
                while end + 1 < img.w && img.get(end + 1, y) == EMPTY_CELL {
                    end += 1;
                }
                (x0, y0, run) = (start, y, end + 1 - start);
                break 'find;
            }
        }
    }
    assert!(run >= 200, "no heatmap grid found in {}", pic.display());
    let side = run; // square: 1000 × 1000 elements
    let lit = |x: u32, y: u32| {
        let c = img.get(x, y);
        c != EMPTY_CELL && c != [255, 255, 255]
    };
    let col = x0 + 700 * side / 1000;
    let row = y0 + 500 * side / 1000;
    let in_col: Vec<u32> = (y0..y0 + side).filter(|&y| lit(col, y)).collect();
    assert!(
        !in_col.is_empty(),
        "no mark in column {col} of {} (grid at {x0},{y0}, {side} px)",
        pic.display()
    );
    assert!(
        in_col.iter().all(|&y| y.abs_diff(row) <= 3),
        "mark at the wrong rows {in_col:?}, expected about {row}"
    );
    // Visible: a mark of at least 3 × 3 pixels, not a lone pixel.
    let mut n = 0;
    for y in row - 4..=row + 4 {
        for x in col - 4..=col + 4 {
            n += lit(x, y) as u32;
        }
    }
    assert!(
        n >= 9,
        "only {n} pixel(s) lit around ({col},{row}) in {}",
        pic.display()
    );
    // Nothing else in the grid is lit.
    for y in (y0..y0 + side).step_by(7) {
        for x in (x0..x0 + side).step_by(7) {
            if x.abs_diff(col) > 4 || y.abs_diff(row) > 4 {
                assert!(!lit(x, y), "stray colour at ({x},{y})");
            }
        }
    }

    // Axes: a line under the grid and one left of it, with tick labels outside.
    assert!(
        (x0..x0 + side).all(|x| img.get(x, y0 + side) == INK),
        "no x axis"
    );
    assert!(
        (y0..y0 + side).all(|y| img.get(x0 - 1, y) == INK),
        "no y axis"
    );
    let ink_in = |xa: u32, xb: u32, ya: u32, yb: u32| {
        (ya..yb).any(|y| (xa..xb).any(|x| img.get(x, y) == INK))
    };
    assert!(
        ink_in(x0, x0 + side, y0 + side + 5, y0 + side + 15),
        "no x tick labels"
    );
    assert!(ink_in(0, x0 - 6, y0, y0 + side), "no y tick labels");
    // Legend: below the grid, its ramps reach the full read and write colours.
    let below =
        |c: [u8; 3]| (y0 + side + 30..img.h).any(|y| (0..img.w).any(|x| img.get(x, y) == c));
    assert!(below([255, 40, 40]), "no read colour ramp in the legend");
    assert!(below([50, 90, 255]), "no write colour ramp in the legend");
}
