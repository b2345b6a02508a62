//! Built-in module table, resolver and loader of the re2d QuickJS host.
//!
//! [`BUILTINS`] is the single alias table: each entry has a canonical import
//! name and, optionally, a path suffix. Any relative or absolute import whose
//! resolved path ends in that suffix (e.g. `../../src/highlevel/mesh.js`) is
//! served by the built-in, whether or not such a file exists, unless aliasing
//! is turned off (`--no-builtins`). Served: `highlevel/mesh.js`,
//! `highlevel/rotsprite.js`, `highlevel/api.js`, `highlevel/core.js`,
//! `highlevel/native.js` (as `re2d/mesh`, `re2d/rotsprite`, `re2d/api`,
//! `re2d/core`, `re2d/native`). `re2d/meshload` (the `$.mesh.load` loader) is
//! internal to `re2d/mesh`.

use std::path::{Component, Path, PathBuf};

use rquickjs::{
    Ctx, Error, Module, Result,
    loader::{ImportAttributes, Loader, Resolver},
    module::Declared,
};

/// Where a built-in module's code comes from.
#[derive(Clone, Copy)]
pub enum Source {
    /// An ES module embedded from `js/`.
    Js(&'static str),
    /// A native Rust module.
    Native(for<'js> fn(Ctx<'js>, &str) -> Result<Module<'js, Declared>>),
}

/// One built-in module.
#[derive(Clone, Copy)]
pub struct Builtin {
    /// Canonical import name (`re2d/...`).
    pub name: &'static str,
    /// Path suffix served by this module (`None`: only by name).
    pub alias: Option<&'static str>,
    /// Only these importers may load it (`None`: anyone).
    pub private_to: Option<&'static str>,
    /// The code.
    pub source: Source,
}

fn native_mesh<'js>(ctx: Ctx<'js>, name: &str) -> Result<Module<'js, Declared>> {
    Module::declare_def::<super::mesh::MeshNative, _>(ctx, name)
}

fn native_riv<'js>(ctx: Ctx<'js>, name: &str) -> Result<Module<'js, Declared>> {
    Module::declare_def::<super::riv::RivNative, _>(ctx, name)
}

fn native_rotsprite<'js>(ctx: Ctx<'js>, name: &str) -> Result<Module<'js, Declared>> {
    Module::declare_def::<super::model::ModelNative, _>(ctx, name)
}

fn native_host<'js>(ctx: Ctx<'js>, name: &str) -> Result<Module<'js, Declared>> {
    Module::declare_def::<super::model::HostNative, _>(ctx, name)
}

fn native_sys<'js>(ctx: Ctx<'js>, name: &str) -> Result<Module<'js, Declared>> {
    Module::declare_def::<super::sys::SysNative, _>(ctx, name)
}

/// The alias table.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "re2d/mesh",
        alias: Some("highlevel/mesh.js"),
        private_to: None,
        source: Source::Js(include_str!("../../js/mesh.js")),
    },
    Builtin {
        name: "re2d/native/mesh",
        alias: None,
        private_to: Some("re2d/mesh"),
        source: Source::Native(native_mesh),
    },
    Builtin {
        name: "re2d/meshload",
        alias: None,
        private_to: Some("re2d/mesh"),
        source: Source::Js(include_str!("../../js/meshload.js")),
    },
    Builtin {
        name: "re2d/native/riv",
        alias: None,
        private_to: Some("re2d/mesh"),
        source: Source::Native(native_riv),
    },
    Builtin {
        name: "re2d/rotsprite",
        alias: Some("highlevel/rotsprite.js"),
        private_to: None,
        source: Source::Js(include_str!("../../js/rotsprite.js")),
    },
    Builtin {
        name: "re2d/native/rotsprite",
        alias: None,
        private_to: Some("re2d/rotsprite"),
        source: Source::Native(native_rotsprite),
    },
    Builtin {
        name: "re2d/api",
        alias: Some("highlevel/api.js"),
        private_to: None,
        source: Source::Js(include_str!("../../js/api.js")),
    },
    Builtin {
        name: "re2d/core",
        alias: Some("highlevel/core.js"),
        private_to: None,
        source: Source::Js(include_str!("../../js/core.js")),
    },
    Builtin {
        name: "re2d/native",
        alias: Some("highlevel/native.js"),
        private_to: None,
        source: Source::Js(include_str!("../../js/native.js")),
    },
    Builtin {
        name: "std",
        alias: None,
        private_to: None,
        source: Source::Js(include_str!("../../js/std.js")),
    },
    Builtin {
        name: "os",
        alias: None,
        private_to: None,
        source: Source::Js(include_str!("../../js/os.js")),
    },
    Builtin {
        name: "re2d/native/sys",
        alias: None,
        private_to: None,
        source: Source::Native(native_sys),
    },
    Builtin {
        name: "re2d/native/host",
        alias: None,
        private_to: Some("re2d/native"),
        source: Source::Native(native_host),
    },
];

/// Lexically normalise a path (`.`/`..` removed; the file need not exist).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Does `path` end with the `/`-separated `suffix` on a component boundary?
fn ends_with_suffix(path: &str, suffix: &str) -> bool {
    path == suffix
        || path
            .strip_suffix(suffix)
            .is_some_and(|head| head.ends_with('/'))
}

/// Resolves imports: built-in names, path aliases, then files relative to
/// the importing file.
pub struct HostResolver {
    /// Path aliasing on (off with `--no-builtins`).
    pub aliases: bool,
}

impl HostResolver {
    /// Resolve `name` imported from module `base` (pure function, testable).
    pub fn resolve_name(&self, base: &str, name: &str) -> std::result::Result<String, String> {
        if let Some(b) = BUILTINS.iter().find(|b| b.name == name) {
            return match b.private_to {
                Some(p) if p != base => Err(format!("module '{name}' is internal to '{p}'")),
                _ => Ok(b.name.to_string()),
            };
        }
        let is_path = name.starts_with("./") || name.starts_with("../") || name.starts_with('/');
        if !is_path {
            return Err(format!(
                "cannot resolve module '{name}' (imported from '{base}')"
            ));
        }
        let joined = if name.starts_with('/') {
            PathBuf::from(name)
        } else {
            let dir = Path::new(base).parent().unwrap_or(Path::new(""));
            dir.join(name)
        };
        let path = normalize(&joined).to_string_lossy().into_owned();
        if self.aliases
            && let Some(b) = BUILTINS
                .iter()
                .find(|b| b.alias.is_some_and(|s| ends_with_suffix(&path, s)))
        {
            return Ok(b.name.to_string());
        }
        Ok(path)
    }
}

impl Resolver for HostResolver {
    fn resolve<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        base: &str,
        name: &str,
        _attributes: Option<ImportAttributes<'js>>,
    ) -> Result<String> {
        self.resolve_name(base, name).map_err(|msg| {
            let text = format!("Error resolving module '{name}' from '{base}': {msg}");
            crate::errors::reference_error(ctx, &text)
        })
    }
}

/// Loads built-ins from [`BUILTINS`] and everything else from disk.
pub struct HostLoader;

impl Loader for HostLoader {
    fn load<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        name: &str,
        _attributes: Option<ImportAttributes<'js>>,
    ) -> Result<Module<'js, Declared>> {
        if let Some(b) = BUILTINS.iter().find(|b| b.name == name) {
            return match b.source {
                Source::Js(src) => Module::declare(ctx.clone(), name, src),
                Source::Native(f) => f(ctx.clone(), name),
            };
        }
        let path =
            super::guard::confine_read(Path::new(name)).map_err(|e| loading(ctx, name, &e))?;
        let max = re2d::limits::Limits::current().json_max_bytes;
        let source = super::guard::read_counted(ctx, &path, max, "json-max-bytes", 0, "import")?
            .map_err(|e| loading(ctx, name, &e.to_string()))?;
        super::guard::add_input(&path);
        Module::declare(ctx.clone(), name, source)
    }
}

/// The loader's error, worded as rquickjs words it.
fn loading(ctx: &Ctx<'_>, name: &str, message: &str) -> Error {
    crate::errors::reference_error(ctx, &format!("Error loading module '{name}': {message}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_alias_and_builtin_names() {
        let r = HostResolver { aliases: true };
        assert_eq!(
            r.resolve_name("/a/b/tests/js/t.mjs", "./_harness.mjs")
                .unwrap(),
            "/a/b/tests/js/_harness.mjs"
        );
        assert_eq!(
            r.resolve_name("/a/b/tests/js/t.mjs", "../../src/highlevel/mesh.js")
                .unwrap(),
            "re2d/mesh"
        );
        assert_eq!(
            r.resolve_name("/x/y.mjs", "re2d/mesh").unwrap(),
            "re2d/mesh"
        );
        assert!(r.resolve_name("/x/y.mjs", "re2d/native/mesh").is_err());
        assert!(r.resolve_name("re2d/mesh", "re2d/native/mesh").is_ok());
        assert!(r.resolve_name("/x/y.mjs", "lodash").is_err());
        assert_eq!(
            r.resolve_name("/x/y.mjs", "./nothighlevel/mesh.js")
                .unwrap(),
            "/x/nothighlevel/mesh.js"
        );
        let off = HostResolver { aliases: false };
        assert_eq!(
            off.resolve_name("/a/t.mjs", "./highlevel/mesh.js").unwrap(),
            "/a/highlevel/mesh.js"
        );
    }
}
