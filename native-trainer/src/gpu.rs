//! The devices a command runs on, and for a GPU backend which adapter it got: named on stderr
//! before anything runs, recorded after the command in checkpoints and manifests, and refused
//! when it is the CPU behind a GPU API (Mesa's lavapipe or llvmpipe, SwiftShader), which trains
//! ~50x slower than the flex backend, unless `--allow-software-gpu` asks for it.

use burn::tensor::Device;

use crate::cli::Backend;

/// What a GPU backend got: the text recorded after the command (`# on ...`) in checkpoints and
/// manifests. None for the CPU backend.
pub type Hardware = Option<String>;

/// The backend's first `n` devices (wgpu: the default adapter, or the first `n` discrete GPUs;
/// cuda: devices 0..n; flex: the CPU, n times, for tests: no faster than one), and what they are.
pub fn devices_for(backend: Backend, n: usize, allow_software: bool) -> Result<(Vec<Device>, Hardware), String> {
    let n = n.max(1);
    match backend {
        Backend::Flex => Ok((vec![Device::flex(); n], None)),
        Backend::Wgpu => wgpu_devices(n, allow_software),
        Backend::Cuda => cuda_devices(n),
    }
}

#[cfg(feature = "wgpu-unfused")]
fn wgpu_devices(n: usize, allow_software: bool) -> Result<(Vec<Device>, Hardware), String> {
    use burn::tensor::DeviceKind;
    let kinds: Vec<DeviceKind> = if n == 1 { vec![DeviceKind::DefaultDevice] } else { (0..n).map(DeviceKind::DiscreteGpu).collect() };
    let mut devices = Vec::with_capacity(n);
    let mut named = Vec::with_capacity(n);
    for kind in kinds {
        let (device, setup) = Device::wgpu_options()
            .device_kind(kind.clone())
            .init_with_setup()
            .map_err(|e| no_adapter(&format!("{kind:?}"), &e.to_string()))?;
        let adapter = adapter::Adapter::of(&setup.adapter.get_info());
        eprintln!("wgpu adapter: {}", adapter.describe());
        if adapter.is_software() && !allow_software {
            return Err(format!(
                "the wgpu adapter is {}: the CPU behind a GPU API, much slower than `--backend flex`. \
                 Install the GPU's Vulkan driver, or pass --allow-software-gpu to run there anyway",
                adapter.describe()
            ));
        }
        devices.push(device);
        named.push(adapter.describe());
    }
    Ok((devices, Some(format!("{} [{}]", named.join(" + "), adapter::build()))))
}

#[cfg(feature = "wgpu-unfused")]
fn no_adapter(wanted: &str, why: &str) -> String {
    let found = adapter::all();
    let found = if found.is_empty() {
        "none on any graphics API (Vulkan, GL)".to_string()
    } else {
        found.iter().map(adapter::Adapter::describe).collect::<Vec<_>>().join("; ")
    };
    format!("no GPU adapter for `--backend wgpu` ({wanted}: {why}). Adapters found: {found}")
}

#[cfg(not(feature = "wgpu-unfused"))]
fn wgpu_devices(_: usize, _: bool) -> Result<(Vec<Device>, Hardware), String> {
    Err("this binary was built without the `wgpu` feature; rebuild with \
         `cargo build --release -p native-trainer --features wgpu`"
        .into())
}

#[cfg(feature = "cuda")]
fn cuda_devices(n: usize) -> Result<(Vec<Device>, Hardware), String> {
    eprintln!("cuda devices 0..{n} (cubecl's CUDA runtime names no adapter before its first kernel)");
    Ok(((0..n).map(Device::cuda).collect(), Some(format!("CUDA devices 0..{n}"))))
}

#[cfg(not(feature = "cuda"))]
fn cuda_devices(_: usize) -> Result<(Vec<Device>, Hardware), String> {
    Err("this binary was built without the `cuda` feature; rebuild with \
         `cargo build --release -p native-trainer --features cuda` (needs the NVIDIA driver, and \
         internet at build time for cubecl's LLVM bundle: docs/training.md)"
        .into())
}

/// An adapter as wgpu reports it, read the same way whether it is used or only listed.
#[cfg(feature = "wgpu-unfused")]
mod adapter {
    use burn::tensor::wgpu::wgpu;

    pub struct Adapter {
        name: String,
        kind: wgpu::DeviceType,
        api: wgpu::Backend,
        driver: String,
    }

    impl Adapter {
        pub fn of(info: &wgpu::AdapterInfo) -> Adapter {
            let driver = format!("{} {}", info.driver, info.driver_info).trim().to_string();
            Adapter { name: info.name.clone(), kind: info.device_type, api: info.backend, driver }
        }

        /// The CPU behind a GPU API: what wgpu calls a CPU adapter, or one of the software
        /// rasterizers by name (a GL driver may not say what it is).
        pub fn is_software(&self) -> bool {
            let name = self.name.to_lowercase();
            self.kind == wgpu::DeviceType::Cpu || ["llvmpipe", "lavapipe", "softpipe", "swiftshader"].iter().any(|s| name.contains(s))
        }

        /// `NVIDIA H200 (discrete GPU, Vulkan, driver NVIDIA 570.1)`.
        pub fn describe(&self) -> String {
            let kind = match self.kind {
                _ if self.is_software() => "software: the CPU",
                wgpu::DeviceType::DiscreteGpu => "discrete GPU",
                wgpu::DeviceType::IntegratedGpu => "integrated GPU",
                wgpu::DeviceType::VirtualGpu => "virtual GPU",
                wgpu::DeviceType::Cpu => "software: the CPU",
                wgpu::DeviceType::Other => "other",
            };
            let driver = if self.driver.is_empty() { String::new() } else { format!(", driver {}", self.driver) };
            format!("{} ({kind}, {:?}{driver})", self.name, self.api)
        }
    }

    /// Every adapter on every graphics API this build can use, for the error that found none.
    pub fn all() -> Vec<Adapter> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
            backends: wgpu::Backends::all(),
            ..wgpu::InstanceDescriptor::new_without_display_handle()
        });
        block_on(instance.enumerate_adapters(wgpu::Backends::all())).iter().map(|a| Adapter::of(&a.get_info())).collect()
    }

    /// What this build compiles kernels with: recorded beside the adapter, since the same GPU
    /// runs at different speeds with and without them.
    pub fn build() -> &'static str {
        match (cfg!(feature = "vulkan"), cfg!(feature = "wgpu")) {
            (true, _) => "SPIR-V on Vulkan, fusion, autotune",
            (false, true) => "WGSL, fusion, autotune",
            (false, false) => "WGSL, no fusion, no autotune",
        }
    }

    /// Native wgpu's enumeration is ready at once; this polls it without an async runtime.
    fn block_on<F: std::future::Future>(future: F) -> F::Output {
        let mut future = std::pin::pin!(future);
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        loop {
            if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut cx) {
                return out;
            }
            std::thread::yield_now();
        }
    }
}
