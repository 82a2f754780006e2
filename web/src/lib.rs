//! garm in a browser: JavaScript hands an AArch64 ELF, arguments, standard input and a number of
//! instances to [`run`]; the same run loop as the command line's ([`garm::api::Runner`]) steps on
//! the page's WebGPU device, awaiting each readback, and output reaches the page as it arrives.

use garm::api::{Config, Program, Runner};
use garm::gpu::device::Gpu;
use garm::gpu::shader::Prelude;
use garm::run::RunOptions;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console)]
    fn error(s: &str);
}

/// A panic says where on the console (wasm would show only "unreachable").
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| error(&format!("garm: panic: {info}"))));
}

fn js_err(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

/// The options every browser run uses: the portable `vec2<u32>` prelude (WGSL in a browser has
/// no 64-bit integers) and the interpreter (the translation tier compiles on a second thread).
fn options() -> RunOptions {
    RunOptions {
        prelude: Some(Prelude::Vec2),
        tier: garm::tier::Mode::Interp,
        ..RunOptions::default()
    }
}

/// Opens the browser's WebGPU adapter: its name, or an error saying there is none.
#[wasm_bindgen]
pub async fn adapter() -> Result<String, JsValue> {
    let gpu = Gpu::open_async(None, false).await.map_err(js_err)?;
    Ok(describe(&gpu))
}

fn describe(gpu: &Gpu) -> String {
    let i = &gpu.info;
    let name = [&i.name, &i.driver, &i.driver_info]
        .iter()
        .filter(|s| !s.is_empty())
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    if name.is_empty() {
        format!("{:?} adapter", i.backend)
    } else {
        format!("{name} ({:?})", i.backend)
    }
}

fn exit(on_exit: &js_sys::Function, i: usize, status: i32, instructions: u64) {
    let _ = on_exit.call3(
        &JsValue::NULL,
        &JsValue::from(i as u32),
        &JsValue::from(status),
        &JsValue::from(instructions as f64),
    );
}

/// Runs `elf` as `instances` instances, each with `args` (argv[0] is `name`) and `stdin`.
/// `callbacks` may hold `output(instance, fd, bytes)`, called as output arrives, `exit(instance,
/// status, instructions)`, as each instance ends, and `progress(instructions, seconds)`, every
/// quarter second. The result is an object with the adapter, the instructions retired, the
/// seconds taken (`first_submit`: those of the first submit, which waits for the shader's
/// compile) and `files`, an array of [path, Uint8Array] the guests wrote.
#[wasm_bindgen]
pub async fn run(
    elf: Vec<u8>,
    name: String,
    args: Vec<String>,
    instances: u32,
    stdin: Vec<u8>,
    callbacks: js_sys::Object,
) -> Result<JsValue, JsValue> {
    let callback = |name: &str| -> Option<js_sys::Function> {
        js_sys::Reflect::get(&callbacks, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into().ok())
    };
    let ignore = js_sys::Function::new_no_args("");
    let on_output = callback("output").unwrap_or_else(|| ignore.clone());
    let on_exit = callback("exit").unwrap_or_else(|| ignore.clone());
    let on_progress = callback("progress");
    let gpu = Gpu::open_async(None, false).await.map_err(js_err)?;
    // A shader the browser rejects, or a lost device, says so on the console (the run then
    // fails at its next readback).
    gpu.device
        .on_uncaptured_error(std::sync::Arc::new(|e: wgpu::Error| {
            error(&format!("garm: WebGPU error: {e}"))
        }));
    let adapter = describe(&gpu);
    let program = Program::from_elf(elf, &name);
    let mut argv = vec![name.clone()];
    argv.extend(args);
    // As `garm run --instances N` gives them: GARM_INSTANCE and GARM_INSTANCES when N > 1,
    // the same standard input for each.
    let mut opts = options();
    opts.instances = instances.max(1);
    opts.stdin = Some(stdin);
    let specs = garm::run::instance_specs(&argv, &opts);
    let config = Config::from_options(opts);
    let mut runner = Runner::with_specs_on(gpu, &program, &specs, &config).map_err(js_err)?;
    let n = specs.len();
    let mut shown = vec![0usize; n];
    let mut ended = vec![false; n];
    let t0 = js_sys::Date::now();
    let mut first = None;
    let mut told = t0;
    loop {
        let done = runner.step_async().await.map_err(js_err)?;
        let now = js_sys::Date::now();
        if let (Some(f), true) = (&on_progress, now - told >= 250.0) {
            told = now;
            let _ = f.call2(
                &JsValue::NULL,
                &JsValue::from(runner.retired() as f64),
                &JsValue::from((now - t0) / 1000.0),
            );
        }
        // The first submit waits for the browser to compile the shader.
        first.get_or_insert_with(|| (js_sys::Date::now() - t0) / 1000.0);
        for (i, seen) in shown.iter_mut().enumerate() {
            let chunks = runner.output_chunks(i, *seen);
            *seen += chunks.len();
            // Bytes, not text: a character split across two writes is decoded whole.
            for (fd, bytes) in chunks {
                let _ = on_output.call3(
                    &JsValue::NULL,
                    &JsValue::from(i as u32),
                    &JsValue::from(*fd),
                    &js_sys::Uint8Array::from(bytes.as_slice()),
                );
            }
        }
        for (i, e) in ended.iter_mut().enumerate() {
            if let (false, Some(o)) = (*e, runner.outcome(i)) {
                *e = true;
                exit(&on_exit, i, o.exit_status(), runner.instructions(i));
            }
        }
        if done {
            break;
        }
    }
    let secs = (js_sys::Date::now() - t0) / 1000.0;
    let files = js_sys::Array::new();
    for (path, bytes) in runner.files_written() {
        let pair = js_sys::Array::new();
        pair.push(&JsValue::from_str(&path));
        pair.push(&js_sys::Uint8Array::from(bytes.as_slice()));
        files.push(&pair);
    }
    let results = runner.results();
    let mut total = 0u64;
    for (i, r) in results.iter().enumerate() {
        total += r.instructions;
        if !ended[i] {
            exit(&on_exit, i, r.exit_status(), r.instructions);
        }
    }
    let out = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&out, &JsValue::from_str(k), v);
    set("adapter", &JsValue::from_str(&adapter))?;
    set("instructions", &JsValue::from(total as f64))?;
    set("seconds", &JsValue::from(secs))?;
    set("first_submit", &JsValue::from(first.unwrap_or(secs)))?;
    set("files", &files)?;
    Ok(out.into())
}
