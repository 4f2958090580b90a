//! Step playback: which step of a run is on screen, the timer that plays the steps, and the
//! Back / Play / Step buttons.

use leptos::prelude::*;

/// The steps of a run on screen, played one after another. `Copy`, so closures capture it.
#[derive(Clone, Copy)]
pub struct Playback {
    /// The step on screen, 1-based; 0 while none is shown.
    pub shown: RwSignal<usize>,
    pub playing: RwSignal<bool>,
    /// Milliseconds per step while playing.
    pub speed_ms: RwSignal<u32>,
    /// How many steps there are to show (read untracked by the timer).
    available: Callback<(), usize>,
}

impl Playback {
    /// Playback of the steps `available` says exist, playing from the start or not, and its
    /// timer: while `playing`, one more step every `speed_ms` (checked every 100 ms), the first at
    /// once, never past the available steps. Pausing only stops the timer; the results stay.
    pub fn new(playing: bool, speed_ms: u32, available: impl Fn() -> usize + Send + Sync + 'static) -> Self {
        let playback = Self {
            shown: RwSignal::new(0),
            playing: RwSignal::new(playing),
            speed_ms: RwSignal::new(speed_ms),
            available: Callback::new(move |()| available()),
        };
        playback.start_timer();
        playback
    }

    pub fn available(self) -> usize {
        self.available.run(())
    }

    fn start_timer(self) {
        let Self { shown, playing, speed_ms, .. } = self;
        let elapsed = StoredValue::new(0u32);
        if let Ok(handle) = set_interval_with_handle(
            move || {
                if !playing.get_untracked() || shown.get_untracked() >= self.available() {
                    return;
                }
                elapsed.update_value(|e| *e += 100);
                if elapsed.get_value() >= speed_ms.get_untracked() || shown.get_untracked() == 0 {
                    elapsed.set_value(0);
                    shown.update(|s| *s += 1);
                }
            },
            std::time::Duration::from_millis(100),
        ) {
            on_cleanup(move || handle.clear());
        }
    }

    /// One step back (not before the first), and pause.
    pub fn back(self) {
        self.playing.set(false);
        self.shown.update(|s| *s = s.saturating_sub(1).max(1));
    }

    /// One step on (not past the last that exists), and pause.
    pub fn next(self) {
        self.playing.set(false);
        let max = self.available();
        self.shown.update(|s| *s = (*s + 1).min(max));
    }
}

/// Back / Play-Pause / Step for `playback`, in units of `unit` ("step", "latent": the buttons
/// say "◀ Previous step" …, their names the words they show, as WCAG 2.5.3 asks). `speed_select` adds the speed menu; `rewind` makes
/// Play at the last step start again from the first.
#[component]
pub fn Player(
    playback: Playback,
    unit: &'static str,
    #[prop(optional)] speed_select: bool,
    #[prop(optional)] rewind: bool,
) -> impl IntoView {
    let Playback { shown, playing, speed_ms, .. } = playback;
    let play = move |_| {
        if rewind && shown.get_untracked() >= playback.available() {
            shown.set(0)
        }
        playing.update(|p| *p = !*p)
    };
    let buttons = view! {
        <button on:click=move |_| playback.back()>{format!("◀ Previous {unit}")}</button>
        <button class="play" on:click=play>
            {move || if playing.get() { "Pause" } else { "Play" }}
        </button>
        <button on:click=move |_| playback.next()>{format!("Next {unit} ▶")}</button>
    };
    // Two shapes rather than an optional child, so a player without the menu has nothing after
    // its buttons (not even an empty placeholder).
    if !speed_select {
        return view! { <div class="player row" role="group" aria-label="Playback">{buttons}</div> }.into_any();
    }
    view! {
        <div class="player row" role="group" aria-label="Playback">
            {buttons}
            <label>
                "Speed "
                <select aria-label="Speed" on:change=move |ev| { if let Ok(ms) = event_target_value(&ev).parse() { speed_ms.set(ms) } }>
                    <option value="1000">"0.5×"</option>
                    <option value="500" selected>"1×"</option>
                    <option value="250">"2×"</option>
                    <option value="100">"5×"</option>
                </select>
            </label>
        </div>
    }
    .into_any()
}
