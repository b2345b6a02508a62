// re2d msh: validate, export, roundtrip and synthesise MSH models (spec: msh.md §7, §8, §9.1).
//! Exit codes: 0 ok, 1 input rejected (format error, strict violation,
//! model that cannot be exported), 2 usage, 3 I/O. Errors are one line on
//! stderr; outputs are published atomically and never replace an input.

use std::path::PathBuf;

use re2d::limits::Limits;
use re2d_msh::export::{self, Axis, Options, PoseChoice};
use re2d_msh::nres::{self, Issue, Profile};
use re2d_msh::{self as msh, synth};
use re2d_output::publish::{publish, publish_with};

use crate::nres::{Fail, read_input};

/// MSH subcommands.
#[derive(clap::Subcommand)]
pub enum Cmd {
    /// Check a model and list every violation (strict by default).
    Validate(ValidateArgs),
    /// Export a model to OBJ or glTF 2.0 (.glb, or .gltf with an embedded buffer).
    Export(Box<ExportArgs>),
    /// Decode and re-encode losslessly; the output is byte-identical.
    Roundtrip {
        /// Model file (or an archive holding one, with --entry).
        file: PathBuf,
        /// The archive entry holding the model (case-insensitive).
        #[arg(long, value_name = "NAME")]
        entry: Option<String>,
        /// Output file.
        #[arg(short = 'o', long)]
        output: PathBuf,
    },
    /// Write a synthetic test model.
    Synth {
        /// Seed (deterministic output).
        #[arg(long)]
        seed: u64,
        /// Profile: triangle, cube-lods, hierarchy-anim, nested, quirks, quirks38, big.
        #[arg(long, default_value = "hierarchy-anim", value_parser = synth::PROFILES)]
        profile: String,
        /// Output file.
        #[arg(short = 'o', long)]
        output: PathBuf,
    },
}

/// `re2d msh validate` arguments.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("profile").args(["strict", "tolerant"])))]
pub struct ValidateArgs {
    /// Model file (or an archive holding one, with --entry).
    file: PathBuf,
    /// The archive entry holding the model (case-insensitive).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// Every §1.6/§4.1 violation is an error (default).
    #[arg(long)]
    strict: bool,
    /// Only what the tolerant reader cannot survive is an error; the rest are diagnostics.
    #[arg(long)]
    tolerant: bool,
    /// Print {"ok","errors","diagnostics"} as JSON.
    #[arg(long)]
    json: bool,
}

/// `re2d msh export` arguments.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("when").args(["time", "static_pose"])))]
pub struct ExportArgs {
    /// Model file (or an archive holding one, with --entry).
    file: PathBuf,
    /// The archive entry holding the model (case-insensitive).
    #[arg(long, value_name = "NAME")]
    entry: Option<String>,
    /// Output format.
    #[arg(long, value_parser = ["obj", "gltf"])]
    format: String,
    /// Output file (glTF: .glb, or .gltf for JSON with an embedded buffer).
    #[arg(short = 'o', long)]
    output: PathBuf,
    /// LOD 0..2.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=2))]
    lod: u8,
    /// Group 0..4.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
    group: u8,
    /// Pose the nodes at this time (frame units) instead of the static pose.
    #[arg(long, allow_negative_numbers = true)]
    time: Option<f32>,
    /// Use the static pose (Res8[fallback_key]); the default.
    #[arg(long = "static")]
    static_pose: bool,
    /// glTF axis conversion.
    #[arg(long, default_value = "lh-to-rh", value_parser = ["lh-to-rh", "raw"])]
    axis: String,
    /// OBJ: every Res3 vertex once, unposed; glTF: nodes without TRS.
    #[arg(long)]
    no_pose: bool,
    /// Dump every usable batch regardless of slots (diagnostics).
    #[arg(long)]
    all_batches: bool,
    /// glTF: add the animation, sampled at every frame.
    #[arg(long)]
    anim: bool,
    /// Frames per second for --anim.
    #[arg(long, default_value_t = 30.0)]
    fps: f32,
}

fn usage(msg: &str) -> Fail {
    Fail(2, format!("error: {msg}"))
}

pub fn run(c: &Cmd) -> i32 {
    match run_inner(c) {
        Ok(()) => 0,
        Err(Fail(code, line)) => {
            eprintln!("{line}");
            code
        }
    }
}

fn print_diags(d: &[Issue]) {
    for x in d {
        println!("diagnostic[{}]: {}", x.code, x.message);
    }
}

fn run_inner(c: &Cmd) -> Result<(), Fail> {
    let limits = Limits::current();
    match c {
        Cmd::Validate(a) => {
            let bytes = read_input(&a.file, limits.nres_max_input_bytes, "nres-max-input")?;
            let entry = a.entry.as_deref().map(str::as_bytes);
            let profile = if a.tolerant {
                Profile::Tolerant
            } else {
                Profile::Strict
            };
            let report = msh::validate_with(&bytes, entry, profile, &limits);
            let mode = if a.tolerant { "tolerant" } else { "strict" };
            if a.json {
                println!("{:#}", report.json());
            } else {
                for e in &report.errors {
                    println!(
                        "error[{}]{}{}: {}",
                        e.code,
                        e.table.map_or(String::new(), |t| format!(" Res{t}")),
                        e.index.map_or(String::new(), |i| format!(" #{i}")),
                        e.message
                    );
                }
                print_diags(&report.diagnostics);
                println!(
                    "{}: {} ({mode}): {} error(s), {} diagnostic(s)",
                    a.file.display(),
                    if report.ok() { "ok" } else { "invalid" },
                    report.errors.len(),
                    report.diagnostics.len()
                );
            }
            if let Some(e) = report.errors.first() {
                let more = report.errors.len() - 1;
                return Err(Fail(
                    1,
                    format!(
                        "error[{}]: {}: {}{}",
                        e.code,
                        a.file.display(),
                        e.message,
                        if more > 0 {
                            format!(" (and {more} more)")
                        } else {
                            String::new()
                        }
                    ),
                ));
            }
            Ok(())
        }
        Cmd::Export(a) => {
            if a.anim && a.format == "obj" {
                return Err(usage("--anim needs --format gltf"));
            }
            if a.anim && (a.no_pose || a.all_batches) {
                return Err(usage(
                    "--anim cannot be combined with --no-pose or --all-batches",
                ));
            }
            if !(a.fps.is_finite() && a.fps > 0.0) {
                return Err(usage("--fps must be a positive number"));
            }
            if a.time.is_some_and(|t| !t.is_finite()) {
                return Err(usage("--time must be a finite number"));
            }
            let o = Options {
                lod: a.lod as usize,
                group: a.group as usize,
                pose: a.time.map_or(PoseChoice::Static, PoseChoice::Time),
                axis: if a.axis == "raw" {
                    Axis::Raw
                } else {
                    Axis::LhToRh
                },
                no_pose: a.no_pose,
                all_batches: a.all_batches,
                anim: a.anim,
                fps: a.fps,
            };
            let bytes = read_input(&a.file, limits.nres_max_input_bytes, "nres-max-input")?;
            let entry = a.entry.as_deref().map(str::as_bytes);
            let (m, diags) = msh::decode(&bytes, entry, Profile::Tolerant, &limits)
                .map_err(|e| Fail::issue(&a.file, &e))?;
            // streamed into the publish temp file; the size is checked
            // against export-max-bytes before the export writes anything
            let max = limits.export_max_bytes;
            let gltf_text = a
                .output
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("gltf"));
            let mut written = None;
            publish_with(&a.output, &[a.file.as_path()], |w| {
                written = Some(if a.format == "obj" {
                    export::obj_to(&m, &o, max, w)?
                } else {
                    export::gltf_to(&m, &o, !gltf_text, max, w)?
                });
                Ok(())
            })
            .map_err(|e| match e.content::<Issue>() {
                Some(i) => Fail::issue(&a.file, i),
                None => Fail::publish(&e),
            })?;
            let out = written.expect("the export ran");
            print_diags(&diags);
            print_diags(&out.diagnostics);
            println!(
                "wrote {} ({} bytes, {} nodes)",
                a.output.display(),
                out.bytes,
                m.node_count()
            );
            Ok(())
        }
        Cmd::Roundtrip {
            file,
            entry,
            output,
        } => {
            let bytes = read_input(file, limits.nres_max_input_bytes, "nres-max-input")?;
            let out = match entry {
                None => {
                    let (m, _) = msh::decode(&bytes, None, Profile::Tolerant, &limits)
                        .map_err(|e| Fail::issue(file, &e))?;
                    m.encode().map_err(|e| Fail::issue(file, &e))?
                }
                Some(name) => {
                    let (m, _) =
                        msh::decode(&bytes, Some(name.as_bytes()), Profile::Tolerant, &limits)
                            .map_err(|e| Fail::issue(file, &e))?;
                    let inner = m.encode().map_err(|e| Fail::issue(file, &e))?;
                    let (mut outer, _) = nres::decode(&bytes, Profile::Tolerant, &limits)
                        .map_err(|e| Fail::issue(file, &e))?;
                    let i = outer.find(name.as_bytes()).map(|f| f.index).unwrap_or(0);
                    outer
                        .replace_payload(i, &inner)
                        .map_err(|e| Fail::issue(file, &e))?;
                    outer.encode_lossless().map_err(|e| Fail::issue(file, &e))?
                }
            };
            if out != bytes {
                return Err(Fail(
                    1,
                    format!(
                        "error[E_ROUNDTRIP]: {}: re-encoding is not byte-identical ({} vs {} bytes)",
                        file.display(),
                        out.len(),
                        bytes.len()
                    ),
                ));
            }
            publish(output, &out, &[file.as_path()]).map_err(|e| Fail::publish(&e))?;
            println!("{}: identical ({} bytes)", output.display(), out.len());
            Ok(())
        }
        Cmd::Synth {
            seed,
            profile,
            output,
        } => {
            let s = synth::generate(profile, *seed).map_err(|e| usage(&e))?;
            publish(output, &s.bytes, &[]).map_err(|e| Fail::publish(&e))?;
            println!(
                "wrote {} (profile {profile}, seed {seed}, {} bytes{})",
                output.display(),
                s.bytes.len(),
                s.entry
                    .map_or(String::new(), |e| format!(", model in entry {e}"))
            );
            Ok(())
        }
    }
}
