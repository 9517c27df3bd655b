//! The pictures of a sweep, as SVG written by hand (a few elements; no plotting crate):
//! a line plot for one parameter (time against the value, one line per kernel and the
//! total) and a heat map for two (the program's speed-up over the base point per pair of
//! values).

use std::fmt::Write as _;

use crate::sweep::{speedup, Parameter, PointResult, TOTAL};

const PALETTE: &[&str] = &[
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// Text safe inside an SVG element or attribute.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// About five round tick values covering `0..=max`.
fn ticks(max: f64) -> Vec<f64> {
    if max <= 0.0 || !max.is_finite() {
        return vec![0.0, 1.0];
    }
    let raw = max / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    let n = (max / step).ceil() as usize;
    (0..=n).map(|i| i as f64 * step).collect()
}

fn label(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.3}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// The numeric value of each point's parameter `i`, or its position where any is not a
/// number.
fn positions(points: &[&PointResult], i: usize) -> Vec<f64> {
    let numbers: Option<Vec<f64>> = points.iter().map(|p| p.values[i].parse().ok()).collect();
    numbers.unwrap_or_else(|| (0..points.len()).map(|i| i as f64).collect())
}

fn header(out: &mut String, width: u32, height: u32, title: &str) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"{width}\" height=\"{height}\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n",
        width / 2,
        escape(title)
    );
}

/// Time against the parameter's value: one line per kernel and a thicker one for the
/// total; the base point (index 0) is left out. `title` heads it.
pub fn line_plot(parameter: &Parameter, points: &[PointResult], title: &str) -> String {
    let (w, h) = (760u32, 440u32);
    let (left, right, top, bottom) = (70.0, 190.0, 40.0, 50.0);
    let (pw, ph) = (f64::from(w) - left - right, f64::from(h) - top - bottom);
    let grid: Vec<&PointResult> = points.iter().filter(|p| p.index > 0).collect();
    let xs = positions(&grid, 0);
    let (xmin, xmax) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
            (a.min(*x), b.max(*x))
        });
    let xspan = if xmax > xmin { xmax - xmin } else { 1.0 };
    let mut series: Vec<String> = Vec::new();
    for p in &grid {
        for k in &p.kernels {
            if !series.contains(&k.kernel) {
                series.push(k.kernel.clone());
            }
        }
    }
    // The total last, drawn over the kernels.
    series.retain(|s| s != TOTAL);
    series.push(TOTAL.to_string());
    let micros = |p: &PointResult, s: &str| {
        p.kernels
            .iter()
            .find(|k| k.kernel == s)
            .map_or(0.0, |k| k.micros)
    };
    let ymax = grid.iter().map(|p| micros(p, TOTAL)).fold(0.0, f64::max);
    let yticks = ticks(ymax);
    let ytop = *yticks.last().expect("ticks are never empty");
    let x = |v: f64| left + (v - xmin) / xspan * pw;
    let y = |v: f64| top + ph - v / ytop * ph;
    let mut out = String::new();
    header(&mut out, w, h, title);
    // Axes, grid lines and ticks.
    for t in &yticks {
        let _ = writeln!(
            out,
            "<line x1=\"{left}\" x2=\"{:.1}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left + pw,
            left - 6.0,
            y(*t) + 4.0,
            label(*t),
            yy = y(*t)
        );
    }
    for t in ticks(xspan) {
        let v = xmin + t;
        if v > xmax + 1e-9 {
            break;
        }
        let _ = writeln!(
            out,
            "<line x1=\"{xx:.1}\" x2=\"{xx:.1}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#333\"/>\
             <text x=\"{xx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            top + ph,
            top + ph + 5.0,
            top + ph + 18.0,
            label(v),
            xx = x(v)
        );
    }
    let _ = writeln!(
        out,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{pw:.1}\" height=\"{ph:.1}\" fill=\"none\" stroke=\"#333\"/>\n\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n\
         <text transform=\"translate(18 {:.1}) rotate(-90)\" text-anchor=\"middle\">estimated time (µs)</text>",
        left + pw / 2.0,
        f64::from(h) - 12.0,
        escape(&parameter.key),
        top + ph / 2.0
    );
    for (i, s) in series.iter().enumerate() {
        let total = s == TOTAL;
        let colour = if total {
            "#000"
        } else {
            PALETTE[i % PALETTE.len()]
        };
        let path: Vec<String> = grid
            .iter()
            .zip(&xs)
            .map(|(p, xv)| format!("{:.1},{:.1}", x(*xv), y(micros(p, s))))
            .collect();
        let _ = writeln!(
            out,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\" points=\"{}\"/>",
            if total { 2.5 } else { 1.5 },
            path.join(" ")
        );
        let ly = top + 10.0 + 18.0 * i as f64;
        let lx = left + pw + 14.0;
        let _ = writeln!(
            out,
            "<line x1=\"{lx:.1}\" x2=\"{:.1}\" y1=\"{ly:.1}\" y2=\"{ly:.1}\" stroke=\"{colour}\" stroke-width=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            lx + 20.0,
            if total { 2.5 } else { 1.5 },
            lx + 26.0,
            ly + 4.0,
            escape(s)
        );
    }
    out.push_str("</svg>\n");
    out
}

/// The colour of a speed-up: white at 1, blue for faster, red for slower, the most extreme
/// at `lo` (log2 of the least speed-up, at most 0) and `hi` (of the most, at least 0).
fn colour(s: f64, lo: f64, hi: f64) -> String {
    let l = s.log2();
    let (target, f) = if l >= 0.0 {
        ((33.0, 102.0, 172.0), if hi > 0.0 { l / hi } else { 0.0 })
    } else {
        ((178.0, 24.0, 43.0), if lo < 0.0 { l / lo } else { 0.0 })
    };
    let mix = |c: f64| (255.0 + (c - 255.0) * f.clamp(0.0, 1.0)).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(target.0),
        mix(target.1),
        mix(target.2)
    )
}

/// The program's speed-up over the base point for every pair of the two parameters'
/// values: the first across, the second up.
pub fn heat_map(parameters: &[Parameter], points: &[PointResult], title: &str) -> String {
    let (a, b) = (&parameters[0], &parameters[1]);
    let (nx, ny) = (a.values.len(), b.values.len());
    let cell_w = (560.0 / nx as f64).clamp(4.0, 80.0);
    let cell_h = (360.0 / ny as f64).clamp(4.0, 48.0);
    let (left, top) = (90.0, 40.0);
    let (pw, ph) = (cell_w * nx as f64, cell_h * ny as f64);
    let w = (left + pw + 130.0).ceil() as u32;
    let h = (top + ph + 60.0).ceil() as u32;
    let base = points.first().map_or(0.0, |p| p.total().micros);
    let grid: Vec<&PointResult> = points.iter().filter(|p| p.index > 0).collect();
    let speedups: Vec<f64> = grid
        .iter()
        .map(|p| speedup(base, p.total().micros))
        .collect();
    let lo = speedups.iter().fold(0.0f64, |m, s| m.min(s.log2()));
    let hi = speedups.iter().fold(0.0f64, |m, s| m.max(s.log2()));
    let mut out = String::new();
    header(&mut out, w, h, title);
    for (k, (p, s)) in grid.iter().zip(&speedups).enumerate() {
        // grid() varies the second parameter fastest.
        let (i, j) = (k / ny, k % ny);
        let cx = left + i as f64 * cell_w;
        let cy = top + ph - (j + 1) as f64 * cell_h;
        let _ = writeln!(
            out,
            "<rect x=\"{cx:.1}\" y=\"{cy:.1}\" width=\"{cell_w:.1}\" height=\"{cell_h:.1}\" fill=\"{}\">\
             <title>{}={}, {}={}: {:.2}x ({:.2} µs)</title></rect>",
            colour(*s, lo, hi),
            escape(&a.key),
            escape(&p.values[0]),
            escape(&b.key),
            escape(&p.values[1]),
            s,
            p.total().micros
        );
        if cell_w >= 34.0 && cell_h >= 16.0 {
            let _ = writeln!(
                out,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"10\">{:.2}</text>",
                cx + cell_w / 2.0,
                cy + cell_h / 2.0 + 3.5,
                s
            );
        }
    }
    // Axis labels: every value where they fit, else about ten.
    let every = |n: usize, room: f64| ((n as f64 * 34.0 / room).ceil() as usize).max(1);
    let sx = every(nx, pw);
    for (i, v) in a.values.iter().enumerate().filter(|(i, _)| i % sx == 0) {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            left + (i as f64 + 0.5) * cell_w,
            top + ph + 16.0,
            escape(v)
        );
    }
    let sy = every(ny, ph * 2.0);
    for (j, v) in b.values.iter().enumerate().filter(|(j, _)| j % sy == 0) {
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            top + ph - (j as f64 + 0.5) * cell_h + 4.0,
            escape(v)
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n\
         <text transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        left + pw / 2.0,
        top + ph + 38.0,
        escape(&a.key),
        top + ph / 2.0,
        escape(&b.key)
    );
    // The colour scale: speed-up from the least to the most.
    let (lx, steps) = (left + pw + 30.0, 10);
    let _ = writeln!(
        out,
        "<text x=\"{lx:.1}\" y=\"{:.1}\">speed-up</text>",
        top - 6.0
    );
    for t in 0..=steps {
        let l = hi - (hi - lo) * t as f64 / steps as f64;
        let s = l.exp2();
        let ty = top + t as f64 * 22.0;
        let _ = writeln!(
            out,
            "<rect x=\"{lx:.1}\" y=\"{ty:.1}\" width=\"20\" height=\"22\" fill=\"{}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{:.2}x</text>",
            colour(s, lo, hi),
            lx + 26.0,
            ty + 15.0,
            s
        );
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_maximum() {
        assert_eq!(ticks(9.0), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(131.0), [0.0, 50.0, 100.0, 150.0]);
        assert!(*ticks(0.37).last().unwrap() >= 0.37);
    }

    #[test]
    fn colours_run_from_red_through_white_to_blue() {
        assert_eq!(colour(1.0, -1.0, 1.0), "#ffffff");
        assert_eq!(colour(2.0, -1.0, 1.0), "#2166ac");
        assert_eq!(colour(0.5, -1.0, 1.0), "#b2182b");
    }
}
