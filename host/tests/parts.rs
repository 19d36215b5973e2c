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

/// Every module of `src` (its first path component: `store` for `store/pg_log.rs`) with the
/// modules its code names.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
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
    let module = |p: &Path| -> String {
        let rel = p.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .to_string();
        first.trim_end_matches(".rs").to_string()
    };
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
        let text = std::fs::read_to_string(p).unwrap();
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap()
            .lines()
            .map(|l| l.split("//").next().unwrap())
            .collect::<Vec<_>>()
            .join("\n");
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
