//! `garm cc` as a compiler driver people already know: the usual cc flags (`-O2 -g -Iinc -DX -c
//! -lm -o prog a.c b.o`) sorted into what clang compiles with, what the linker takes, and
//! garm's own options, so Makefiles can call `garm cc` like `cc`.

use super::Libc;
use std::path::PathBuf;

/// One `garm cc` command line, sorted.
#[derive(Debug, Default, PartialEq)]
pub struct CcArgs {
    /// `-o FILE`; `None`: `a.out`, or `NAME.o` per source with `-c`.
    pub output: Option<PathBuf>,
    /// C sources, in order; `-` is standard input.
    pub sources: Vec<PathBuf>,
    /// Objects and archives (`.o`, `.a`) to link, in order.
    pub objects: Vec<PathBuf>,
    /// Flags for every compile (`-O`, `-g`, `-I`, `-D`, `-U`, `-std=`, `-W`, `-f`, ...).
    pub cflags: Vec<String>,
    /// Flags for the link (`-l`, `-L`, `-Wl,...`).
    pub ldflags: Vec<String>,
    /// `-c`: objects, no link.
    pub compile_only: bool,
    /// `--pie`: a static PIE.
    pub pie: bool,
    /// `--libc garm|glibc|musl`.
    pub libc: Libc,
    /// Make-style dependency output: `-MD`/`-MMD` (`-MP`, `-MF FILE`, `-MT`/`-MQ TARGET`).
    pub deps: Deps,
    /// `--compiler clang|garm`: garm's own compiler runs on garm instead of clang on the host.
    pub garm_compiler: bool,
}

/// What `-MD` and its companions ask for: a `.d` file written beside each object.
#[derive(Debug, Default, PartialEq)]
pub struct Deps {
    /// `-MD` (every header) or `-MMD` (no system headers); `None`: no dependency file.
    pub system: Option<bool>,
    pub phony: bool,
    pub file: Option<PathBuf>,
    pub targets: Vec<String>,
}

/// Flags that take the next argument as their value when written apart (`-I dir`).
const WITH_VALUE: &[&str] = &[
    "-I", "-D", "-U", "-include", "-isystem", "-iquote", "-L", "-l",
];
/// Flags garm builds ignore: every garm program is static and linked by garm's script.
const IGNORED: &[&str] = &["-static", "-pipe", "-no-pie"];

/// `--compiler`'s value: whether it names garm's own compiler.
fn compiler(v: &str) -> Result<bool, String> {
    match v {
        "garm" => Ok(true),
        "clang" => Ok(false),
        _ => Err(format!("garm cc: unknown compiler '{v}' (clang or garm)")),
    }
}

/// Sorts a `garm cc` command line; an error names the argument garm cannot take.
pub fn parse(args: &[String]) -> Result<CcArgs, String> {
    let mut a = CcArgs::default();
    let mut it = args.iter().peekable();
    let value = |it: &mut std::iter::Peekable<std::slice::Iter<String>>, flag: &str| {
        it.next()
            .cloned()
            .ok_or_else(|| format!("garm cc: {flag} needs a value"))
    };
    while let Some(arg) = it.next() {
        let s = arg.as_str();
        match s {
            "-" => a.sources.push(PathBuf::from("-")),
            "-o" => a.output = Some(PathBuf::from(value(&mut it, s)?)),
            "-c" => a.compile_only = true,
            "--pie" => a.pie = true,
            "-MD" => a.deps.system = Some(true),
            "-MMD" => a.deps.system = Some(false),
            "-MP" => a.deps.phony = true,
            "-MF" => a.deps.file = Some(PathBuf::from(value(&mut it, s)?)),
            "-MT" | "-MQ" => a.deps.targets.push(value(&mut it, s)?),
            "--libc" => a.libc = value(&mut it, s)?.parse()?,
            "--compiler" => a.garm_compiler = compiler(&value(&mut it, s)?)?,
            // garm's earlier spelling: one clang flag per --cflag.
            "--cflag" => a.cflags.push(value(&mut it, s)?),
            _ if IGNORED.contains(&s) => {}
            _ if WITH_VALUE.contains(&s) => {
                let v = value(&mut it, s)?;
                let to = if s == "-L" || s == "-l" {
                    &mut a.ldflags
                } else {
                    &mut a.cflags
                };
                to.push(s.to_string());
                to.push(v);
            }
            _ if s.starts_with("--libc=") => a.libc = s["--libc=".len()..].parse()?,
            _ if s.starts_with("--compiler=") => {
                a.garm_compiler = compiler(&s["--compiler=".len()..])?
            }
            _ if s.starts_with("--cflag=") => a.cflags.push(s["--cflag=".len()..].to_string()),
            _ if s.starts_with("-o") => a.output = Some(PathBuf::from(&s[2..])),
            _ if s.starts_with("-l") || s.starts_with("-L") || s.starts_with("-Wl,") => {
                a.ldflags.push(s.to_string())
            }
            _ if s.starts_with("-O")
                || s.starts_with("-g")
                || s.starts_with("-I")
                || s.starts_with("-D")
                || s.starts_with("-U")
                || s.starts_with("-std=")
                || s.starts_with("-W")
                || s.starts_with("-f")
                || s == "-w"
                || s == "-pedantic"
                || s == "-pedantic-errors"
                || s == "-ansi" =>
            {
                a.cflags.push(s.to_string())
            }
            _ if s.starts_with('-') => return Err(format!("garm cc: unsupported option {s}")),
            _ if s.ends_with(".o") || s.ends_with(".a") => a.objects.push(PathBuf::from(s)),
            _ => a.sources.push(PathBuf::from(s)),
        }
    }
    if a.sources.is_empty() && a.objects.is_empty() {
        return Err("garm cc: no input files".into());
    }
    if a.sources.iter().filter(|s| s.as_os_str() == "-").count() > 1 {
        return Err("garm cc: standard input named twice".into());
    }
    if a.compile_only && a.output.is_some() && a.sources.len() > 1 {
        return Err("garm cc: -c with -o takes one source".into());
    }
    if a.compile_only && a.sources.is_empty() {
        return Err("garm cc: -c needs a source".into());
    }
    if a.deps.system.is_some() && !a.compile_only {
        return Err("garm cc: -MD/-MMD need -c (one object per source)".into());
    }
    if a.deps.file.is_some() && a.sources.len() > 1 {
        return Err("garm cc: -MF takes one source".into());
    }
    if a.pie && a.libc != Libc::Garm {
        return Err(format!("garm cc: --pie with --libc {:?}", a.libc));
    }
    Ok(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<CcArgs, String> {
        parse(&s.split_whitespace().map(String::from).collect::<Vec<_>>())
    }

    #[test]
    fn the_usual_flags_are_sorted() {
        let a = p(
            "-O2 -g -Iinc -I more -DX=1 -D Y -UZ -std=c11 -Wall -Wl,--gc-sections \
                   -fno-builtin -c a.c -o a.o -lfoo -L lib -static",
        )
        .unwrap();
        assert_eq!(a.output, Some(PathBuf::from("a.o")));
        assert!(a.compile_only);
        assert_eq!(a.sources, [PathBuf::from("a.c")]);
        assert_eq!(
            a.cflags,
            [
                "-O2",
                "-g",
                "-Iinc",
                "-I",
                "more",
                "-DX=1",
                "-D",
                "Y",
                "-UZ",
                "-std=c11",
                "-Wall",
                "-fno-builtin"
            ]
        );
        assert_eq!(a.ldflags, ["-Wl,--gc-sections", "-lfoo", "-L", "lib"]);
    }

    #[test]
    fn garm_options_objects_and_stdin() {
        let a = p("--pie --cflag -DQ a.c - b.o c.a -oprog").unwrap();
        assert!(a.pie);
        assert_eq!(a.cflags, ["-DQ"]);
        assert_eq!(a.sources, [PathBuf::from("a.c"), PathBuf::from("-")]);
        assert_eq!(a.objects, [PathBuf::from("b.o"), PathBuf::from("c.a")]);
        assert_eq!(a.output, Some(PathBuf::from("prog")));
        assert_eq!(p("--libc=musl x.c").unwrap().libc, Libc::Musl);
        assert!(p("--compiler garm x.c").unwrap().garm_compiler);
        assert!(!p("--compiler=clang x.c").unwrap().garm_compiler);
        assert!(p("--compiler gcc x.c").is_err());
        let d = p("-c -MMD -MP -MF x.d -MT obj a.c").unwrap().deps;
        assert_eq!(d.system, Some(false));
        assert!(d.phony);
        assert_eq!(d.file, Some(PathBuf::from("x.d")));
        assert_eq!(d.targets, ["obj"]);
    }

    #[test]
    fn what_garm_cannot_take_is_named() {
        assert!(p("").unwrap_err().contains("no input files"));
        assert!(p("-x c a.c").unwrap_err().contains("unsupported option -x"));
        assert!(p("a.c -o").unwrap_err().contains("-o needs a value"));
        assert!(p("- -").unwrap_err().contains("twice"));
        assert!(p("-c a.c b.c -o x.o").unwrap_err().contains("one source"));
        assert!(p("--pie --libc glibc a.c").unwrap_err().contains("--pie"));
        assert!(p("--libc newlib a.c").is_err());
        assert!(p("-MD a.c").unwrap_err().contains("need -c"));
    }
}
