// re2d nres: list, extract, pack and repack NRes archives (spec: msh.md §1, §8).
//! Exit codes: 0 ok, 1 input rejected (format error, strict violation,
//! unreadable entry, bad manifest), 2 usage (including an output that is one
//! of the inputs), 3 I/O. Errors are one line on stderr; every file is
//! published atomically.

use std::path::{Path, PathBuf};

use re2d::limits::Limits;
use re2d_msh::nres::{self, Issue, Profile, manifest};
use re2d_output::publish::{publish, publish_dir};

/// NRes subcommands.
#[derive(clap::Subcommand)]
pub enum Cmd {
    /// List the directory: type, attrs, offset, size, sort_index, name.
    List {
        /// Archive.
        archive: PathBuf,
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Reject any strict violation (default: tolerant reading).
        #[arg(long)]
        strict: bool,
    },
    /// Write one file per entry plus manifest.json into a directory.
    Extract {
        /// Archive.
        archive: PathBuf,
        /// Output directory (created if needed; published as a whole, a non-empty one only with --force).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Replace a non-empty output directory (atomically: old or new, never a mix).
        #[arg(long)]
        force: bool,
    },
    /// Build a canonical archive from a manifest.json (as written by extract).
    Pack {
        /// Manifest.
        manifest: PathBuf,
        /// Output archive.
        #[arg(short = 'o', long)]
        output: PathBuf,
    },
    /// Rewrite an archive in canonical compact form.
    Repack {
        /// Archive.
        archive: PathBuf,
        /// Output archive.
        #[arg(short = 'o', long)]
        output: PathBuf,
    },
}

/// A failed command: exit code and the one stderr line.
pub struct Fail(pub i32, pub String);

impl Fail {
    pub fn issue(path: &Path, e: &Issue) -> Fail {
        Fail(
            1,
            format!("error[{}]: {}: {}", e.code, path.display(), e.message),
        )
    }
    pub fn publish(e: &re2d_output::publish::PublishError) -> Fail {
        if let Some(i) = e.content::<Issue>() {
            return Fail(1, format!("error[{}]: {}", i.code, i.message));
        }
        Fail(e.exit_code(), format!("error: {e}"))
    }
}

/// Reads a whole input file through the capped reader of `re2d::limits`:
/// refuses one over `max` bytes (the limit called `limit`) before holding it
/// (exit 1); a missing or unreadable file or a directory is I/O (exit 3).
pub fn read_input(path: &Path, max: u64, limit: &'static str) -> Result<Vec<u8>, Fail> {
    re2d::limits::read_file(path, max, limit).map_err(|e| match e {
        re2d::limits::ReadError::Io(e) => Fail(
            3,
            format!("error[E_IO]: {}: cannot read: {e}", path.display()),
        ),
        re2d::limits::ReadError::TooLarge(e) => {
            Fail(1, format!("error[E_NRES_LIMIT]: {}: {e}", path.display()))
        }
    })
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

fn run_inner(c: &Cmd) -> Result<(), Fail> {
    let limits = Limits::current();
    match c {
        Cmd::List {
            archive,
            json,
            strict,
        } => {
            let bytes = read_input(archive, limits.nres_max_input_bytes, "nres-max-input")?;
            let profile = if *strict {
                Profile::Strict
            } else {
                Profile::Tolerant
            };
            let (a, diags) =
                nres::decode(&bytes, profile, &limits).map_err(|e| Fail::issue(archive, &e))?;
            if *json {
                let doc = serde_json::json!({
                    "file": archive.display().to_string(),
                    "entry_count": a.len(),
                    "total_size": a.total_size(),
                    "lookup": if a.lookup_is_sorted() { "sorted" } else { "linear" },
                    "entries": (0..a.len()).map(|i| manifest::entry_json(&a, i)).collect::<Vec<_>>(),
                    "diagnostics": diags.iter().map(Issue::json).collect::<Vec<_>>(),
                });
                println!("{doc:#}");
            } else {
                println!(
                    "{}: {} entries, {} bytes, lookup by {}",
                    archive.display(),
                    a.len(),
                    a.total_size(),
                    if a.lookup_is_sorted() {
                        "sort_index"
                    } else {
                        "linear scan"
                    }
                );
                println!(
                    "{:>5} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>6}  name",
                    "#", "type", "attr1", "attr2", "attr3", "offset", "size", "sort"
                );
                for (i, e) in a.entries().iter().enumerate() {
                    let name = match e.name() {
                        Some(n) => format!("\"{}\"", nres::name::display(n)),
                        None => "(no NUL)".into(),
                    };
                    println!(
                        "{i:>5} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>6}  {name}{}",
                        e.type_id,
                        e.attr1,
                        e.attr2,
                        e.attr3,
                        e.data_offset,
                        e.size,
                        e.sort_index,
                        if a.payload(i).is_none() {
                            "  [unreadable]"
                        } else {
                            ""
                        }
                    );
                }
                for d in &diags {
                    println!("diagnostic[{}]: {}", d.code, d.message);
                }
            }
            Ok(())
        }
        Cmd::Extract {
            archive,
            out,
            force,
        } => {
            let bytes = read_input(archive, limits.nres_max_input_bytes, "nres-max-input")?;
            let (a, _) = nres::decode(&bytes, Profile::Tolerant, &limits)
                .map_err(|e| Fail::issue(archive, &e))?;
            if let Some(i) = (0..a.len()).find(|&i| a.payload(i).is_none()) {
                return Err(Fail(
                    1,
                    format!(
                        "error[E_NRES_PAYLOAD_RANGE]: {}: entry {i} is unreadable; nothing extracted",
                        archive.display()
                    ),
                ));
            }
            let inputs = [archive.as_path()];
            let doc = format!("{:#}\n", manifest::manifest(&a));
            publish_dir(out, *force, &inputs, |tmp| {
                for i in 0..a.len() {
                    std::fs::write(
                        tmp.join(manifest::file_name(&a, i)),
                        a.payload(i).unwrap_or(&[]),
                    )?;
                }
                std::fs::write(tmp.join("manifest.json"), doc.as_bytes())
            })
            .map_err(|e| Fail::publish(&e))?;
            println!("extracted {} entries to {}", a.len(), out.display());
            Ok(())
        }
        Cmd::Pack {
            manifest: mpath,
            output,
        } => {
            let text = read_input(mpath, limits.json_max_bytes, "json-max-bytes")?;
            limits
                .check_json_depth(&text)
                .map_err(|e| Fail(1, format!("error[E_NRES_LIMIT]: {}: {e}", mpath.display())))?;
            let entries = manifest::parse_manifest(&text).map_err(|e| Fail::issue(mpath, &e))?;
            manifest::check_packable(&entries, &limits).map_err(|e| Fail::issue(mpath, &e))?;
            let base = mpath.parent().unwrap_or(Path::new("."));
            let mut files: Vec<PathBuf> = Vec::with_capacity(entries.len());
            let mut loaded = Vec::with_capacity(entries.len());
            let mut total = 0u64;
            for e in entries {
                let p = base.join(&e.file);
                let data = read_input(&p, limits.nres_max_payload_bytes, "nres-max-payload")?;
                total += data.len() as u64;
                if total > limits.nres_max_input_bytes {
                    return Err(Fail(
                        1,
                        format!(
                            "error[E_NRES_LIMIT]: {}: the payloads exceed the archive limit of {} bytes",
                            mpath.display(),
                            limits.nres_max_input_bytes
                        ),
                    ));
                }
                files.push(p);
                loaded.push((e, data));
            }
            let bytes = manifest::pack(&loaded).map_err(|e| Fail::issue(mpath, &e))?;
            // what the reader rejects is never written
            nres::decode(&bytes, Profile::Tolerant, &limits).map_err(|e| Fail::issue(mpath, &e))?;
            let mut inputs: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
            inputs.push(mpath);
            publish(output, &bytes, &inputs).map_err(|e| Fail::publish(&e))?;
            println!(
                "packed {} entries into {} ({} bytes)",
                loaded.len(),
                output.display(),
                bytes.len()
            );
            Ok(())
        }
        Cmd::Repack { archive, output } => {
            let bytes = read_input(archive, limits.nres_max_input_bytes, "nres-max-input")?;
            let (a, _) = nres::decode(&bytes, Profile::Tolerant, &limits)
                .map_err(|e| Fail::issue(archive, &e))?;
            let out = a.encode_canonical().map_err(|e| Fail::issue(archive, &e))?;
            publish(output, &out, &[archive.as_path()]).map_err(|e| Fail::publish(&e))?;
            println!(
                "repacked {} entries: {} -> {} bytes",
                a.len(),
                bytes.len(),
                out.len()
            );
            Ok(())
        }
    }
}
