//! The host's modules form no import circle that spans its parts, and the store imports
//! nothing from the modules that use it: read from the sources (`crate::…` paths outside
//! comments and tests), as a reader of the code would follow them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The host's parts of more than one module: a circle within one of them is the part's own.
const PARTS: [&[&str]; 2] = [
    // Ownership across processes.
    &["owner", "deferred", "peers", "ownership"],
    // The games' faces and the picture they draw.
    &["games", "picture", "draw"],
];

/// The `Host`: `lobby` (the router over the parts), `tables` (the tables' life, from opening
/// to closing), `recovery` (after a restart, and the sweep) and its face for the live pages
/// (`pages`). Every other module is a part or a leaf below them: none names the `Host` or its
/// modules, and none implements the `Host`'s own methods; what a part needs of the host it
/// asks through a trait of its own.
const HOST: [&str; 4] = ["lobby", "tables", "recovery", "pages"];

/// The parts that own state of their own, each of them a module (or several) without the
/// `Host`: the running tables, the turn timers, who watches which table, ownership across
/// processes, the tournaments, the community (boards, seasons, ratings, its pages) and the
/// publishing of what was made (the chat's stream, the pages, the other processes).
const STATEFUL_PARTS: [&str; 10] = [
    "running",
    "timers",
    "watching",
    "owner",
    "deferred",
    "peers",
    "tournament",
    "boards",
    "publish",
    "ownership",
];

/// Every module of `src` (its first path component: `store` for `store/pg_log.rs`) with the
/// modules its code names.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = sources(src);
    let module = |p: &Path| module_of(src, p);
    let modules: BTreeSet<String> = files.iter().map(|p| module(p)).filter(|m| m != "lib").collect();
    // Names re-exported at the crate's root (`pub use outbox::{Button, …}` in lib.rs), by the
    // module they come from: `crate::Button` names `outbox`.
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let root: Vec<(String, String)> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub use "))
        .filter_map(|l| l.split_once("::"))
        .flat_map(|(m, names)| {
            names
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|n| !n.is_empty())
                .map(move |n| (n.to_string(), m.to_string()))
        })
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for p in &files {
        let from = module(p);
        if from == "lib" {
            continue;
        }
        let code = code_of(p);
        let mut named = BTreeSet::new();
        let mut rest = code.as_str();
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                named.extend(
                    group[..end]
                        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .map(str::to_string),
                );
            } else {
                let word: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                named.insert(word);
            }
        }
        let deps = graph.entry(from.clone()).or_default();
        for w in named {
            let to = root
                .iter()
                .find(|(name, _)| *name == w)
                .map_or(w.clone(), |(_, m)| m.clone());
            if to != from && modules.contains(&to) {
                deps.insert(to);
            }
        }
    }
    graph
}

/// The `.rs` files under `src`.
fn sources(src: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files
}

/// The module a file of `src` belongs to (its first path component, without `.rs`).
fn module_of(src: &Path, p: &Path) -> String {
    let rel = p.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy()
        .to_string();
    first.trim_end_matches(".rs").to_string()
}

/// A file's code: without its tests and its comments.
fn code_of(p: &Path) -> String {
    let text = std::fs::read_to_string(p).unwrap();
    text.split("#[cfg(test)]")
        .next()
        .unwrap()
        .lines()
        .map(|l| l.split("//").next().unwrap())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The circles of `graph` (its strongly connected components of more than one module).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    // Which modules each reaches.
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(m) = todo.pop() {
            for d in graph.get(&m).into_iter().flatten() {
                if seen.insert(d.clone()) {
                    todo.push(d.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|m| (m, reach(m))).collect();
    let mut found: Vec<BTreeSet<String>> = Vec::new();
    for (m, r) in &reaches {
        let circle: BTreeSet<String> = r
            .iter()
            .filter(|o| reaches.get(o).is_some_and(|back| back.contains(*m)))
            .cloned()
            .collect();
        if !circle.is_empty() && !found.iter().any(|c| c.contains(*m)) {
            found.push(circle);
        }
    }
    found
}

#[test]
fn no_import_circle_spans_the_hosts_parts_and_the_store_imports_none_of_its_users() {
    let graph = imports(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    // The reading finds what is there (a guard against a reader that finds nothing).
    assert!(
        graph["lobby"].contains("store") && graph["lobby"].contains("watching"),
        "{graph:?}"
    );
    for circle in circles(&graph) {
        assert!(
            PARTS
                .iter()
                .any(|part| circle.iter().all(|m| part.contains(&m.as_str()))),
            "an import circle spans parts: {circle:?}"
        );
    }
    // The store names no module that names it, directly or through others.
    for dep in &graph["store"] {
        let mut seen = BTreeSet::new();
        let mut todo = vec![dep.clone()];
        while let Some(m) = todo.pop() {
            assert_ne!(m, "store", "the store imports {dep}, which leads back to it");
            for d in graph.get(&m).into_iter().flatten() {
                if seen.insert(d.clone()) {
                    todo.push(d.clone());
                }
            }
        }
    }
}

#[test]
fn the_parts_own_their_state_and_ask_nothing_of_the_host_but_through_their_traits() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = imports(&src);
    for part in STATEFUL_PARTS {
        assert!(graph.contains_key(part), "no module {part} in {graph:?}");
    }
    // Who names the Host or its faces: the Host's own modules alone.
    for (module, deps) in &graph {
        if HOST.contains(&module.as_str()) {
            continue;
        }
        for face in HOST {
            assert!(!deps.contains(face), "{module} names {face}, the Host's own");
        }
    }
    // Who implements the Host's own methods (`impl Host {`): its own modules alone. A part's
    // trait implemented for the Host (`impl TimedHost for Host`) is the Host's, in lobby.
    let mut found = 0;
    for p in sources(&src) {
        let module = module_of(&src, &p);
        let code = code_of(&p);
        let impls = code.matches("impl Host {").count() + code.matches(" for Host {").count();
        found += impls;
        assert!(
            impls == 0 || HOST.contains(&module.as_str()),
            "{} implements the Host ({impls} blocks)",
            p.display()
        );
    }
    // The reading finds what is there: the Host's blocks and the four traits of its parts.
    assert!(found >= 6, "{found} blocks of the Host found");
    // Each part with state holds it in a struct of its own, which the Host holds as a field.
    let host = code_of(&src.join("lobby.rs"));
    let fields = host
        .split("pub struct Host {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("the Host's struct");
    for (part, ty) in [
        ("running", "Running"),
        ("timers", "Timers"),
        ("watching", "Watching"),
        ("owner", "Ownership"),
        ("tournament", "Tournaments"),
        ("boards", "Community"),
        ("publish", "Publisher"),
    ] {
        assert!(
            code_of(&src.join(format!("{part}.rs"))).contains(&format!("struct {ty}")),
            "{part}.rs has no struct {ty}"
        );
        assert!(fields.contains(ty), "the Host holds no {ty}: {fields}");
    }
}
