use super::*;
use crate::protocol::{Intervention, Knobs, StepReport};

fn request(run: u64, samples: usize, shares: usize) -> SolveRequest {
    let knobs = Knobs { seed: 3, verified_stop: true, restarts: 2, ..Knobs::paper(samples, 8) };
    SolveRequest { share: Share { index: 0, shares }, ..SolveRequest::new(run, "gram-nqueens8", ".".repeat(64), knobs) }
}

fn step(run: u64, millis: f64) -> Response {
    Response::Step(StepReport::empty(run, 0, 1, millis))
}

fn done(run: u64) -> Response {
    Response::Done { run, steps: 3, millis: 0.0, verified: None }
}

fn cpu_run() -> CpuRun {
    CpuRun { request: request(2, 20, 2), millis: vec![200.0, 110.0, 90.0, 100.0], workers: 2 }
}

#[test]
fn a_step_figure_is_the_median_after_the_first_step() {
    assert_eq!(step_ms(&[]), None);
    assert_eq!(step_ms(&[50.0]), Some(50.0), "a single step counts");
    assert_eq!(step_ms(&[900.0, 40.0]), Some(40.0), "the warm-up step is left out");
    assert_eq!(step_ms(&[900.0, 40.0, 44.0, 1000.0]), Some(44.0));
    assert_eq!(step_ms(&[900.0, 40.0, 42.0, 44.0, 46.0]), Some(43.0));
}

#[test]
fn the_cpu_run_that_ended_is_timed_and_a_changed_or_failed_one_is_not() {
    let mut runs = CpuRuns::default();
    runs.sent(&Request::Solve(request(1, 20, 2)));
    assert!(runs.in_flight());
    runs.answered(&step(1, 120.0));
    runs.answered(&step(9, 5.0));
    runs.answered(&step(1, 100.0));
    assert_eq!(runs.take_ended(), None, "still running");
    runs.answered(&done(1));
    assert!(!runs.in_flight());
    let ended = runs.take_ended().expect("ended");
    assert_eq!((ended.millis.clone(), ended.workers, ended.request.run), (vec![120.0, 100.0], 2, 1));
    assert_eq!(runs.take_ended(), None, "given once");

    // Stopped after a step: still a timing. Stopped before any: none.
    runs.sent(&Request::Solve(request(2, 20, 2)));
    runs.answered(&step(2, 80.0));
    runs.sent(&Request::Cancel { run: 2 });
    assert!(!runs.in_flight());
    assert_eq!(runs.take_ended().map(|r| r.millis), Some(vec![80.0]));
    runs.sent(&Request::Solve(request(3, 20, 2)));
    runs.sent(&Request::Cancel { run: 3 });
    assert_eq!(runs.take_ended(), None);

    // A changed run is in flight but not timed; a failed run is not timed.
    let changed = SolveRequest { interventions: vec![Intervention::Scale { step: 2, scale: 2.0 }], report_from: 2, ..request(4, 20, 1) };
    runs.sent(&Request::Solve(changed));
    assert!(runs.in_flight());
    runs.answered(&step(4, 70.0));
    runs.answered(&done(4));
    assert!(!runs.in_flight() && runs.take_ended().is_none());
    runs.sent(&Request::Solve(request(5, 20, 1)));
    runs.answered(&step(5, 70.0));
    runs.answered(&Response::Failed { run: 5, message: "x".into() });
    assert!(!runs.in_flight() && runs.take_ended().is_none());
}

#[test]
fn the_timing_run_is_the_same_model_and_samples_without_stop_or_split() {
    let t = cpu_run().timing_request();
    assert_eq!((t.run, t.samples, t.seed, t.model.as_str()), (2, 20, 3, "gram-nqueens8"));
    assert_eq!((t.steps, t.verified_stop, t.restarts, t.share, t.lane), (WARM_UP_STEPS + TIMED_STEPS, false, 0, Share::ALL, Lane::ALONE));
}

#[test]
fn a_probe_loads_the_weights_times_the_run_and_decides() {
    let mut p = Probe::timing(cpu_run(), "NVIDIA".into(), vec!["trm-nqueens8".into(), "gram-nqueens8".into()]);
    let sent = p.requests();
    assert!(matches!(&sent[0], Request::Load { model } if model == "gram-nqueens8"), "the run's model first");
    assert!(matches!(&sent[1], Request::Load { model } if model == "trm-nqueens8"));
    assert!(matches!(&sent[2], Request::Solve(r) if r.steps == 4));
    assert_eq!(sent.len(), 3);
    assert_eq!(p.answered(&Response::Backend { name: "WebGPU".into(), detail: "NVIDIA (GPU)".into() }), ProbeStep::Wait);
    assert_eq!(p.answered(&Response::Loaded { model: "gram-nqueens8".into(), summary: String::new() }), ProbeStep::Wait);
    assert_eq!(p.answered(&Response::Loaded { model: "trm-nqueens8".into(), summary: String::new() }), ProbeStep::Wait);
    for ms in [3000.0, 40.0, 50.0, 45.0] {
        assert_eq!(p.answered(&step(2, ms)), ProbeStep::Wait);
    }
    let ProbeStep::Decided(t) = p.answered(&done(2)) else { panic!() };
    assert_eq!((t.webgpu_ms, t.cpu_ms, t.workers, t.samples), (45.0, 100.0, 2, 20));
    assert!(t.webgpu_faster());
    let s = t.sentence(false);
    assert!(s.starts_with("WebGPU 45 ms a step, CPU 100 ms on 2 workers: WebGPU, the faster (20 samples of gram-nqueens8"), "{s}");
    assert_eq!(p.models(), vec!["gram-nqueens8".to_string(), "trm-nqueens8".to_string()]);
}

#[test]
fn a_slower_or_failing_webgpu_keeps_the_cpu() {
    let slow = Timing { webgpu_ms: 3600.0, cpu_ms: 80.0, ..timing() };
    assert!(!slow.webgpu_faster());
    assert!(slow.sentence(true).starts_with("WebGPU 3600 ms a step, CPU 80 ms on 2 workers: CPU, the not slower"));
    assert!(slow.sentence(true).contains("earlier visit"));
    let mut p = Probe::timing(cpu_run(), "SwiftShader".into(), vec![]);
    let cpu = Response::Backend { name: "CPU".into(), detail: "WebGPU did not start (lost)".into() };
    assert!(matches!(p.answered(&cpu), ProbeStep::Failed(s) if s.contains("did not start") && s.contains("the CPU goes on")));
    let failed = Response::Failed { run: 2, message: "the GPU device was lost".into() };
    assert!(matches!(p.answered(&failed), ProbeStep::Failed(s) if s.contains("device was lost")));
    assert_eq!(p.answered(&Response::Failed { run: 7, message: "other".into() }), ProbeStep::Wait, "another run's failure");
    let mut empty = Probe::timing(cpu_run(), "x".into(), vec![]);
    assert!(matches!(empty.answered(&done(2)), ProbeStep::Failed(_)));
}

fn timing() -> Timing {
    Timing { model: "gram-nqueens8".into(), samples: 20, workers: 2, adapter: "NVIDIA".into(), webgpu_ms: 45.0, cpu_ms: 100.0 }
}

#[test]
fn a_timing_is_remembered_for_its_model_samples_workers_and_adapter_only() {
    let stored = timing().stored();
    assert_eq!(Timing::remembered(Some(&stored), &cpu_run(), "NVIDIA"), Some(timing()));
    assert_eq!(Timing::remembered(Some(&stored), &cpu_run(), "AMD"), None, "another adapter");
    let other = |f: fn(&mut CpuRun)| {
        let mut run = cpu_run();
        f(&mut run);
        Timing::remembered(Some(&stored), &run, "NVIDIA")
    };
    assert_eq!(other(|r| r.request.samples = 64), None, "other samples");
    assert_eq!(other(|r| r.workers = 1), None, "other workers");
    assert_eq!(other(|r| r.request.model = "gram-coloring8".into()), None, "another model");
    assert_eq!(Timing::remembered(Some("garbage"), &cpu_run(), "NVIDIA"), None);
    assert_eq!(Timing::remembered(None, &cpu_run(), "NVIDIA"), None);
    assert_eq!(Timing::key("gram-nqueens8"), "latent-playground.backend.gram-nqueens8");
}

#[test]
fn a_remembered_faster_webgpu_only_loads_the_weights() {
    let mut p = Probe::loading(cpu_run(), timing(), vec!["trm-nqueens8".into()]);
    assert!(p.requests().iter().all(|r| matches!(r, Request::Load { .. })));
    assert_eq!(p.answered(&Response::Loaded { model: "gram-nqueens8".into(), summary: String::new() }), ProbeStep::Wait);
    assert_eq!(p.answered(&Response::Loaded { model: "trm-nqueens8".into(), summary: String::new() }), ProbeStep::Decided(timing()));
    assert_eq!(p.models(), ["gram-nqueens8".to_string(), "trm-nqueens8".to_string()], "every weight it loaded, for the fallback");
}
