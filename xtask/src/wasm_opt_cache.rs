//! wasm-opt, with a cache. `web.rs` calls npm's wasm-opt (binaryen 132), never the system's:
//! Debian's binaryen 108 emits a .wasm that does not load (measured with this toolchain). npm's
//! binaryen is a wasm build of wasm-opt run by Node, and `-Oz` on the WebGPU worker (~24 MB
//! before it) takes it minutes of one core: most of a warm `cargo xtask test` when the wasm did
//! not change at all (a docs or weights change). So `web.rs` calls a small shim named `wasm-opt`
//! in the target dir instead; for a call with an output it keys the result by the sha256 of the
//! arguments (the output path left out), the real wasm-opt's version and every input file's
//! bytes, copies a cached result when there is one, and otherwise runs the real wasm-opt and
//! keeps what it wrote. Same bytes in, same tool, same flags: the same bytes out, as a build
//! cache (like ccache) gives. Every other call (`--version`) goes straight to the real one. The
//! newest 12 results are kept.

use std::path::{Path, PathBuf};

/// The shim's text; `@REAL@` and `@CACHE@` are filled in by [`install`].
const SHIM: &str = r#"#!/usr/bin/env bash
# wasm-opt with a cache, written by `cargo xtask` (xtask/src/wasm_opt_cache.rs). Do not edit.
set -euo pipefail
real='@REAL@'
cache='@CACHE@'
out=''
prev=''
args=()
for a in "$@"; do
  if [ -n "$prev" ]; then out="$a"; prev=''; continue; fi
  case "$a" in
    --output=*) out="${a#--output=}" ;;
    -o|--output) prev="$a" ;;
    *) args+=("$a") ;;
  esac
done
[ -n "$out" ] || exec "$real" "$@"
key=$({
  printf '%s\n' "${args[@]}"
  "$real" --version
  for a in "${args[@]}"; do if [ -f "$a" ]; then sha256sum < "$a"; fi; done
} | sha256sum | cut -c1-64)
if [ -f "$cache/$key.wasm" ]; then
  cp "$cache/$key.wasm" "$out"
  echo "wasm-opt: unchanged input, the cached result ($cache/$key.wasm)" >&2
  exit 0
fi
"$real" "$@"
mkdir -p "$cache"
cp "$out" "$cache/$key.wasm.$$" && mv "$cache/$key.wasm.$$" "$cache/$key.wasm"
ls -t "$cache"/*.wasm | tail -n +13 | xargs -r rm -f
"#;

/// Writes the shim into `dir` (as `dir/wasm-opt`) in front of `real`, caching in `cache`.
pub fn install(dir: &Path, real: &Path, cache: &Path) -> Result<PathBuf, String> {
    let text = SHIM.replace("@REAL@", &real.display().to_string()).replace("@CACHE@", &cache.display().to_string());
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let shim = dir.join("wasm-opt");
    std::fs::write(&shim, text).map_err(|e| format!("{}: {e}", shim.display()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&shim, std::fs::Permissions::from_mode(0o755)).map_err(|e| format!("{}: {e}", shim.display()))?;
    }
    Ok(shim)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    /// A stand-in wasm-opt that "optimises" by copying and counts its runs: the second call with
    /// the same input is served from the cache (the real one does not run), a changed input or
    /// flag runs it again, and `--version` passes through.
    #[test]
    fn the_same_input_is_optimised_once() {
        let base = std::env::temp_dir().join(format!("xtask-wasm-opt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let real = base.join("real-wasm-opt");
        let count = base.join("runs");
        std::fs::write(
            &real,
            format!(
                "#!/usr/bin/env bash\nif [ \"$1\" = --version ]; then echo 'wasm-opt version 132'; exit 0; fi\necho run >> {}\nout=\"${{1#--output=}}\"\ncp \"${{@: -1}}\" \"$out\"\n",
                count.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o755)).unwrap();
        let shim = install(&base.join("shim"), &real, &base.join("cache")).unwrap();
        let input = base.join("in.wasm");
        let run = |flag: &str, out: &str| {
            let status = Command::new(&shim).arg(format!("--output={}", base.join(out).display())).arg(flag).arg(&input).status().unwrap();
            assert!(status.success());
            std::fs::read(base.join(out)).unwrap()
        };
        let runs = || std::fs::read_to_string(&count).unwrap_or_default().lines().count();
        std::fs::write(&input, b"one").unwrap();
        assert_eq!(run("-Oz", "a.wasm"), b"one");
        assert_eq!(runs(), 1);
        assert_eq!(run("-Oz", "b.wasm"), b"one", "the cached result, at the new output path");
        assert_eq!(runs(), 1, "served from the cache");
        run("-O2", "c.wasm");
        assert_eq!(runs(), 2, "another flag is another result");
        std::fs::write(&input, b"two").unwrap();
        assert_eq!(run("-Oz", "d.wasm"), b"two");
        assert_eq!(runs(), 3, "another input is another result");
        let version = Command::new(&shim).arg("--version").output().unwrap();
        assert_eq!(String::from_utf8_lossy(&version.stdout).trim(), "wasm-opt version 132");
        let _ = std::fs::remove_dir_all(&base);
    }
}
