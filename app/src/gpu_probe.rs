//! What the browser's WebGPU offers, asked the same way on the page (to choose which worker to
//! start) and in the worker (to say why it runs where it runs): `navigator.gpu.requestAdapter()`.
//!
//! Which adapter may run the model is one rule, [`webgpu_or_why_not`]: the page applies it to pick
//! the worker build it starts (`ui/model_worker/choose.rs`), and the worker applies it again so
//! the badge can give the reason. A software adapter (SwiftShader, lavapipe: `isFallbackAdapter`)
//! counts as no GPU and is never timed against the CPU: burn-flex in wasm is far faster than it
//! (82 ms against 3,644 ms per step on the e2e test's run, docs/speed.md, "In the browser").
//! `backend=webgpu` in the URL still forces it; the e2e tests do, to run the WebGPU path on
//! SwiftShader, and add `gpuhardware=1` (read in `ui/model_worker/choose.rs`) to present
//! SwiftShader as a hardware adapter.

use js_sys::Reflect;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::protocol::BackendChoice;

/// A WebGPU adapter: whether it is a software one (SwiftShader, lavapipe) and its name.
#[derive(Clone, Debug, PartialEq)]
pub struct Adapter {
    pub software: bool,
    pub name: String,
}

/// `None` without WebGPU (no `navigator.gpu`, or no adapter), else the adapter.
pub async fn probe_adapter() -> Option<Adapter> {
    let navigator = Reflect::get(&js_sys::global(), &"navigator".into()).ok()?;
    let gpu = Reflect::get(&navigator, &"gpu".into()).ok().filter(|g| !g.is_undefined() && !g.is_null())?;
    let request: js_sys::Function = Reflect::get(&gpu, &"requestAdapter".into()).ok()?.dyn_into().ok()?;
    let promise: js_sys::Promise = request.call0(&gpu).ok()?.dyn_into().ok()?;
    let adapter = JsFuture::from(promise).await.ok().filter(|a| !a.is_null() && !a.is_undefined())?;
    let info = Reflect::get(&adapter, &"info".into()).unwrap_or(JsValue::UNDEFINED);
    let flag = |obj: &JsValue| Reflect::get(obj, &"isFallbackAdapter".into()).ok().and_then(|v| v.as_bool());
    // Chromium moved the flag from the adapter to `adapter.info`; read either.
    let software = flag(&info).or_else(|| flag(&adapter)).unwrap_or(false);
    let text = |key: &str| Reflect::get(&info, &key.into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    let parts: Vec<String> = [text("vendor"), text("architecture"), text("description")].into_iter().filter(|s| !s.is_empty()).collect();
    let name = if parts.is_empty() { "unnamed adapter".to_string() } else { parts.join(" ") };
    Some(Adapter { software, name })
}

/// Whether the site serves `url` (a HEAD request answered with a 2xx status). A site may lack
/// the WebGPU worker: `cargo xtask serve` serves the pages before it has built it.
pub async fn is_served(url: &str) -> bool {
    let global = js_sys::global();
    let Some(fetch) = Reflect::get(&global, &"fetch".into()).ok().and_then(|f| f.dyn_into::<js_sys::Function>().ok()) else {
        return false;
    };
    let init = js_sys::Object::new();
    if Reflect::set(&init, &"method".into(), &"HEAD".into()).is_err() {
        return false;
    }
    let Some(promise) = fetch.call2(&global, &url.into(), &init).ok().and_then(|p| p.dyn_into::<js_sys::Promise>().ok()) else {
        return false;
    };
    let Ok(response) = JsFuture::from(promise).await else {
        return false;
    };
    Reflect::get(&response, &"ok".into()).ok().and_then(|ok| ok.as_bool()).unwrap_or(false)
}

/// Why the model runs on the CPU when the page wanted WebGPU but the site has no WebGPU worker.
pub const NO_WEBGPU_BUILD: &str = "this site has no WebGPU build of the model's worker yet (cargo xtask serve adds it a few minutes after the first page: reload then), so the model runs on the CPU (burn-flex, wasm)";

/// The browser runtime (docs/ARCHITECTURE.md): WebGPU on a hardware adapter; a software adapter is slower than
/// burn-flex in wasm, so it counts as no GPU unless the URL forces `backend=webgpu`. `Err` is the
/// sentence that says why the model runs on the CPU.
pub fn webgpu_or_why_not(choice: BackendChoice, adapter: Option<&Adapter>) -> Result<&Adapter, String> {
    if choice == BackendChoice::Cpu {
        return Err("burn-flex on wasm, as the URL asks (backend=cpu)".into());
    }
    let Some(adapter) = adapter else {
        return Err("this browser offers no WebGPU adapter, so the model runs on the CPU (burn-flex, wasm)".into());
    };
    if adapter.software && choice == BackendChoice::Auto {
        return Err(format!(
            "only a software WebGPU adapter ({}) is available, and the CPU is faster; add backend=webgpu to the URL to use it anyway",
            adapter.name
        ));
    }
    Ok(adapter)
}

/// Which worker build the page starts: the CPU-only one is about a quarter of the WebGPU one
/// (no cubecl shader compiler), so a visitor whose model will run on the CPU never downloads
/// the WebGPU stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerBuild {
    Cpu,
    WebGpu,
}

impl WorkerBuild {
    pub fn for_choice(choice: BackendChoice, adapter: Option<&Adapter>) -> Self {
        match webgpu_or_why_not(choice, adapter) {
            Ok(_) => Self::WebGpu,
            Err(_) => Self::Cpu,
        }
    }

    /// The worker's script, as the build names it (xtask/src/web.rs).
    pub fn script(self) -> &'static str {
        match self {
            Self::Cpu => "worker_cpu.js",
            Self::WebGpu => "worker_webgpu.js",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter(software: bool) -> Adapter {
        Adapter { software, name: "SwiftShader".into() }
    }

    #[test]
    fn the_cpu_worker_unless_webgpu_will_be_used() {
        use BackendChoice::*;
        use WorkerBuild as W;
        assert_eq!(W::for_choice(Cpu, Some(&adapter(false))), W::Cpu);
        assert_eq!(W::for_choice(Auto, None), W::Cpu);
        assert_eq!(W::for_choice(WebGpu, None), W::Cpu);
        assert_eq!(W::for_choice(Auto, Some(&adapter(true))), W::Cpu);
        assert_eq!(W::for_choice(WebGpu, Some(&adapter(true))), W::WebGpu);
        assert_eq!(W::for_choice(Auto, Some(&adapter(false))), W::WebGpu);
    }

    #[test]
    fn the_reason_names_the_software_adapter() {
        let why = webgpu_or_why_not(BackendChoice::Auto, Some(&adapter(true))).unwrap_err();
        assert!(why.contains("SwiftShader") && why.contains("backend=webgpu"), "{why}");
    }
}
