//! Games on graphs, and the graph input they share.
//!
//! A `GRAPH` argument is `@PATH` or a quoted string in the same format (the
//! fixed contract, "Games on graphs"): a first line `n m`, then `m` lines
//! `u v` with vertices numbered `1..=n`. In a string `;` may stand for a line
//! break (`"3 2; 1 2; 2 3"`). `#` starts a comment; blank lines are ignored.
//! A vertex out of `1..=n`, a wrong edge count or a non-number is an error
//! naming the line. Loops and repeated edges are read as given; each game says
//! whether it allows them.
//!
//! The games: [`dag`] (tokens on a directed acyclic graph), [`digraph`]
//! (tokens on any directed graph, draws included), [`annihilation`] (tokens
//! that vanish in pairs when they collide), [`hackenbush`]
//! (Green Hackenbush), [`geography`] (undirected vertex geography, decided by
//! maximum matchings) and `tree_walk` (the ancestor-descendant walk).

pub mod annihilation;
pub mod dag;
pub mod digraph;
pub mod geography;
pub mod hackenbush;
pub(crate) mod matching;
pub(crate) mod tree_walk;

use std::sync::Arc;

use crate::drawing::GraphDrawing;
use crate::lang::arguments::{STANDARD_INPUT, read_file_text};
use crate::lang::{LangError, Span, Term, Value, ValueKind};
use crate::registry::BuildContext;
use crate::theory::solver::Limit;

/// A graph as read: `n` vertices and its edges in input order, numbered from 0
/// here (the input numbers vertices from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    vertices: u32,
    edges: Vec<(u32, u32)>,
    /// The line of the text each edge stands on (empty for a graph built
    /// from numbers).
    lines: Vec<u32>,
}

impl Graph {
    /// A graph of `vertices` vertices and `edges` (0-based ends).
    ///
    /// # Panics
    /// When an edge names a vertex out of range (a programming error: input
    /// is checked by [`Graph::parse`]).
    #[must_use]
    pub fn new(vertices: u32, edges: Vec<(u32, u32)>) -> Self {
        assert!(
            edges.iter().all(|&(u, v)| u < vertices && v < vertices),
            "an edge names a vertex out of range"
        );
        Self {
            vertices,
            edges,
            lines: Vec::new(),
        }
    }

    /// The number of vertices.
    #[must_use]
    pub const fn vertex_count(&self) -> usize {
        self.vertices as usize
    }

    /// The edges `(u, v)` in input order, vertices numbered from 0.
    #[must_use]
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// The line of the input that edge `edge` (0-based) stands on, when the
    /// graph was read from text.
    #[must_use]
    pub fn edge_line(&self, edge: usize) -> Option<usize> {
        self.lines.get(edge).map(|&line| line as usize)
    }

    /// Reads the text of a graph (the contract's format). `semicolons` lets
    /// `;` end a line, as in a quoted string.
    ///
    /// # Errors
    /// A [`GraphError`] naming the line.
    pub fn parse(text: &str, semicolons: bool) -> Result<Self, GraphError> {
        let mut lines = Lines::new(text, semicolons);
        let header = loop {
            let Some((number, line)) = lines.next() else {
                return Err(GraphError::new(
                    0,
                    "the graph is empty: its first line must be `n m`, the numbers of vertices \
                     and edges",
                ));
            };
            if let Some(fields) = fields(line, number)? {
                break (number, fields);
            }
        };
        let (header_line, (n, m)) = header;
        if n == 0 {
            return Err(GraphError::new(
                header_line,
                "a graph needs at least one vertex (n >= 1)",
            ));
        }
        let mut edges = Vec::new();
        edges
            .try_reserve_exact(m.min(1 << 26) as usize)
            .map_err(|_| GraphError::new(header_line, "not enough memory for the edges"))?;
        let mut lines_of_edges = Vec::new();
        let mut last_line = header_line;
        for (number, line) in lines {
            let Some((u, v)) = fields(line, number)? else {
                continue;
            };
            if edges.len() as u64 == u64::from(m) {
                return Err(GraphError::new(
                    number,
                    format!("more edges than the m = {m} declared on line {header_line}"),
                ));
            }
            for end in [u, v] {
                if end == 0 || end > n {
                    return Err(GraphError::new(
                        number,
                        format!("vertex {end} is out of 1..{n}"),
                    ));
                }
            }
            edges.push((u - 1, v - 1));
            lines_of_edges.push(u32::try_from(number).unwrap_or(u32::MAX));
            last_line = number;
        }
        if edges.len() as u64 != u64::from(m) {
            return Err(GraphError::new(
                last_line,
                format!(
                    "the graph declares m = {m} edges on line {header_line} but lists {}",
                    edges.len()
                ),
            ));
        }
        Ok(Self {
            vertices: n,
            edges,
            lines: lines_of_edges,
        })
    }

    /// The edges leaving each vertex (`u -> v` for each edge `(u, v)`).
    #[must_use]
    pub(crate) fn out_edges(&self) -> Csr {
        Csr::build(
            self.vertex_count(),
            self.edges
                .iter()
                .enumerate()
                .map(|(id, &(u, v))| (u, v, id as u32)),
        )
    }

    /// The edges at each vertex, both ways (a loop is listed once).
    #[must_use]
    pub(crate) fn incident_edges(&self) -> Csr {
        Csr::build(
            self.vertex_count(),
            self.edges.iter().enumerate().flat_map(|(id, &(u, v))| {
                let id = id as u32;
                let back = (u != v).then_some((v, u, id));
                std::iter::once((u, v, id)).chain(back)
            }),
        )
    }
}

/// Why a graph's text is not a graph: the line (1-based; 0 for the whole
/// text) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", if *line > 0 { format!("line {line}: ") } else { String::new() })]
pub struct GraphError {
    /// The line, counting `;`-separated parts of a string as lines.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl GraphError {
    fn new(line: usize, message: impl Into<String>) -> Self {
        Self {
            line,
            message: message.into(),
        }
    }
}

/// The lines of a graph's text, numbered from 1, comments cut.
struct Lines<'a> {
    rest: &'a str,
    number: usize,
    semicolons: bool,
}

impl<'a> Lines<'a> {
    const fn new(text: &'a str, semicolons: bool) -> Self {
        Self {
            rest: text,
            number: 0,
            semicolons,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let end = if self.semicolons {
            self.rest.find(['\n', ';'])
        } else {
            self.rest.find('\n')
        };
        let (line, rest) = match end {
            Some(end) => (&self.rest[..end], &self.rest[end + 1..]),
            None => (self.rest, ""),
        };
        self.rest = rest;
        self.number += 1;
        let line = line.split_once('#').map_or(line, |(before, _)| before);
        Some((self.number, line))
    }
}

/// The two numbers of a line, or `None` for a blank one.
fn fields(line: &str, number: usize) -> Result<Option<(u32, u32)>, GraphError> {
    let mut words = line.split_ascii_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let read = |word: &str| -> Result<u32, GraphError> {
        if !word.bytes().all(|b| b.is_ascii_digit()) {
            return Err(GraphError::new(
                number,
                format!("`{word}` is not a non-negative integer"),
            ));
        }
        word.parse::<u32>().map_err(|_| {
            GraphError::new(
                number,
                format!("`{word}` is too large (at most {})", u32::MAX),
            )
        })
    };
    let a = read(first)?;
    let Some(second) = words.next() else {
        return Err(GraphError::new(
            number,
            format!("expected two numbers, found only `{first}`"),
        ));
    };
    let b = read(second)?;
    if let Some(extra) = words.next() {
        return Err(GraphError::new(
            number,
            format!("expected two numbers, found a third: `{extra}`"),
        ));
    }
    Ok(Some((a, b)))
}

/// Adjacency in compressed rows: the entries of vertex `v` are
/// `targets[offsets[v]..offsets[v + 1]]`, each with the edge it comes from.
#[derive(Clone, Debug, Default)]
pub(crate) struct Csr {
    pub(crate) offsets: Vec<usize>,
    pub(crate) targets: Vec<u32>,
    pub(crate) edge_ids: Vec<u32>,
}

impl Csr {
    fn build(vertices: usize, arcs: impl Iterator<Item = (u32, u32, u32)> + Clone) -> Self {
        let mut offsets = vec![0usize; vertices + 1];
        for (u, _, _) in arcs.clone() {
            offsets[u as usize + 1] += 1;
        }
        for v in 0..vertices {
            offsets[v + 1] += offsets[v];
        }
        let total = offsets[vertices];
        let mut targets = vec![0u32; total];
        let mut edge_ids = vec![0u32; total];
        let mut next = offsets.clone();
        for (u, v, id) in arcs {
            let at = &mut next[u as usize];
            targets[*at] = v;
            edge_ids[*at] = id;
            *at += 1;
        }
        Self {
            offsets,
            targets,
            edge_ids,
        }
    }

    /// The number of vertices.
    pub(crate) fn vertex_count(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The far ends of the entries at `v`.
    pub(crate) fn neighbours(&self, v: u32) -> &[u32] {
        &self.targets[self.offsets[v as usize]..self.offsets[v as usize + 1]]
    }

    /// The entries at `v`: far end and edge.
    pub(crate) fn entries(&self, v: u32) -> impl Iterator<Item = (u32, u32)> + Clone + '_ {
        let range = self.offsets[v as usize]..self.offsets[v as usize + 1];
        self.targets[range.clone()]
            .iter()
            .copied()
            .zip(self.edge_ids[range].iter().copied())
    }
}

/// A graph argument: the graph, and the argument's canonical text (`@PATH` or
/// the quoted string), which positions after a move repeat as given.
#[derive(Clone, Debug)]
pub(crate) struct GraphInput {
    pub(crate) graph: Arc<Graph>,
    pub(crate) text: Arc<str>,
}

/// Bytes a graph of `vertices` and `edges` takes to read and search, roughly:
/// the edge list and two adjacency arrays.
fn graph_bytes(vertices: u64, edges: u64) -> u64 {
    edges.saturating_mul(8 + 2 * 8) + vertices.saturating_mul(8 * 4)
}

/// Reads argument `index` of `term` as a `GRAPH`: `@PATH` or a quoted string.
///
/// # Errors
/// A [`LangError`] at the argument: not a graph argument, an unreadable file,
/// a malformed graph (naming the line); one marked [`Limit::Memory`] when the
/// graph is larger than the build limits allow.
pub(crate) fn graph_argument(
    term: &Term,
    index: usize,
    context: &BuildContext<'_>,
) -> Result<GraphInput, LangError> {
    let Some(arg) = term.args.get(index) else {
        return Err(LangError::new(
            format!(
                "`{}` needs a graph: `@PATH` or a string such as \"3 2; 1 2; 2 3\"",
                term.name
            ),
            term.span,
        ));
    };
    let too_large = |bytes: u64| {
        LangError::new(
            format!(
                "the graph needs about {} MiB, more than the memory limit of {} MiB",
                bytes >> 20,
                context.limits.bytes >> 20
            ),
            arg.span,
        )
        .as_limit(Limit::Memory)
    };
    let (graph, where_) = match &arg.kind {
        ValueKind::File(path) => {
            // The standard input's size is known once read.
            if path != STANDARD_INPUT {
                let size = std::fs::metadata(path)
                    .map_err(|error| {
                        LangError::new(format!("cannot read `{path}`: {error}"), arg.span)
                    })?
                    .len();
                // Each edge line holds at least four bytes ("u v\n").
                if graph_bytes(0, size / 4) > context.limits.bytes {
                    return Err(too_large(graph_bytes(0, size / 4)));
                }
            }
            let text = read_file_text(path, context.limits.bytes, arg.span)?;
            (Graph::parse(&text, false), format!("`{path}`"))
        }
        ValueKind::Text(text) => (Graph::parse(text, true), "in the graph string,".to_owned()),
        _ => {
            return Err(LangError::new(
                format!(
                    "`{}` takes a graph here: `@PATH` or a string such as \"3 2; 1 2; 2 3\", \
                     found `{arg}`",
                    term.name
                ),
                arg.span,
            ));
        }
    };
    let graph = graph.map_err(|error| {
        LangError::new(format!("{where_} {error}"), arg.span)
            .with_help("a graph is a line `n m`, then m lines `u v` with 1 <= u, v <= n")
    })?;
    let bytes = graph_bytes(graph.vertices.into(), graph.edges.len() as u64);
    if bytes > context.limits.bytes {
        return Err(too_large(bytes));
    }
    Ok(GraphInput {
        graph: Arc::new(graph),
        text: arg.to_string().into(),
    })
}

/// Reads argument `value` as a vertex of a graph of `n` vertices, numbered
/// from 1 in the input; returns it numbered from 0.
///
/// # Errors
/// A [`LangError`] at the argument when it is not an integer in `1..=n`.
pub(crate) fn vertex_argument(term: &Term, value: &Value, n: usize) -> Result<u32, LangError> {
    let ValueKind::Integer(vertex) = &value.kind else {
        return Err(LangError::new(
            format!(
                "`{}` takes a vertex (1..{n}) here, found `{value}`",
                term.name
            ),
            value.span,
        ));
    };
    match u32::try_from(vertex) {
        Ok(vertex) if vertex >= 1 && vertex as usize <= n => Ok(vertex - 1),
        _ => Err(LangError::new(
            format!("vertex {vertex} is out of 1..{n}"),
            value.span,
        )),
    }
}

/// Reads argument `value` as a list of distinct vertices `[v1, ...]` of a
/// graph of `n` vertices; returns them numbered from 0, sorted.
///
/// # Errors
/// A [`LangError`] at the offending element.
pub(crate) fn vertex_list_argument(
    term: &Term,
    value: &Value,
    n: usize,
    what: &str,
) -> Result<Vec<u32>, LangError> {
    let ValueKind::List(items) = &value.kind else {
        return Err(LangError::new(
            format!(
                "`{}` takes the list of {what} here, `[v1, ...]`, found `{value}`",
                term.name
            ),
            value.span,
        ));
    };
    let mut vertices = Vec::with_capacity(items.len());
    for item in items {
        vertices.push((vertex_argument(term, item, n)?, item.span));
    }
    vertices.sort_unstable_by_key(|&(v, _)| v);
    if let Some(pair) = vertices.windows(2).find(|pair| pair[0].0 == pair[1].0) {
        return Err(LangError::new(
            format!("vertex {} is listed twice among the {what}", pair[1].0 + 1),
            pair[1].1,
        ));
    }
    Ok(vertices.into_iter().map(|(v, _)| v).collect())
}

/// Writes a sorted list of 0-based vertices as the input numbers them:
/// `[1, 4, 7]`.
pub(crate) fn write_vertex_list(out: &mut String, vertices: &[u32]) {
    out.push('[');
    for (i, v) in vertices.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&(v + 1).to_string());
    }
    out.push(']');
}

/// The span of a whole term's arguments, for errors about their number.
pub(crate) fn arguments_span(term: &Term) -> Span {
    match (term.args.first(), term.args.last()) {
        (Some(first), Some(last)) => Span::new(first.span.start, last.span.end),
        _ => term.span,
    }
}

/// The most vertices, and the most edges, of a graph that is drawn: a picture
/// of more would be unreadable, and pictures are made for every move shown.
const MOST_DRAWN: usize = 1000;

/// The picture of `graph` alone: its vertices and edges, undirected, with
/// nothing on it; `None` for a graph of more than [`MOST_DRAWN`] vertices or
/// edges.
pub(crate) fn graph_drawing(graph: &Graph) -> Option<GraphDrawing> {
    if graph.vertex_count() > MOST_DRAWN || graph.edges().len() > MOST_DRAWN {
        return None;
    }
    Some(GraphDrawing {
        vertices: graph.vertices,
        edges: graph.edges().to_vec(),
        ..GraphDrawing::default()
    })
}

/// The graph argument of a term as given (`@PATH` or the quoted string), for
/// [`EveryStart::graph`](crate::registry::EveryStart::graph).
pub(crate) fn graph_text(term: &Term) -> Arc<str> {
    term.args[0].to_string().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_contract_format() {
        let graph = Graph::parse("3 2; 1 2; 2 3", true).unwrap();
        assert_eq!(graph.vertex_count(), 3);
        assert_eq!(graph.edges(), &[(0, 1), (1, 2)]);
        let graph = Graph::parse("# a path\n\n3 2\n1 2 # first\n\n2 3\n", false).unwrap();
        assert_eq!(graph.edges(), &[(0, 1), (1, 2)]);
        assert_eq!(graph.edge_line(0), Some(4));
        assert_eq!(graph.edge_line(1), Some(6));
        let graph = Graph::parse("2 3; 1 1; 1 2; 1 2", true).unwrap();
        assert_eq!(graph.edges(), &[(0, 0), (0, 1), (0, 1)]);
        assert_eq!(Graph::parse("1 0", true).unwrap().edges(), &[]);
    }

    #[test]
    fn errors_name_the_line() {
        let cases = [
            ("", 0, "the graph is empty"),
            ("# nothing\n", 0, "the graph is empty"),
            ("3 2; 1 2; 2 4", 3, "vertex 4 is out of 1..3"),
            ("3 2; 1 2; 0 1", 3, "vertex 0 is out of 1..3"),
            ("3 2; 1 2", 2, "declares m = 2 edges on line 1 but lists 1"),
            ("3 1; 1 2; 2 3", 3, "more edges than the m = 1"),
            ("3 1; 1 x", 2, "`x` is not a non-negative integer"),
            ("3 1; 1 -2", 2, "`-2` is not a non-negative integer"),
            ("3 1; 1", 2, "expected two numbers, found only `1`"),
            ("3 1; 1 2 3", 2, "found a third: `3`"),
            ("3", 1, "expected two numbers"),
            ("0 0", 1, "at least one vertex"),
            ("3 1; 1 99999999999", 2, "too large"),
        ];
        for (text, line, message) in cases {
            let error = Graph::parse(text, true).unwrap_err();
            assert_eq!(error.line, line, "{text}: {error}");
            assert!(error.message.contains(message), "{text}: {error}");
        }
        // Without semicolons, `;` is not a line break.
        let error = Graph::parse("3 2; 1 2; 2 3", false).unwrap_err();
        assert_eq!(error.line, 1);
    }

    #[test]
    fn adjacency_lists_every_edge() {
        let graph = Graph::parse("3 3; 1 2; 2 3; 2 2", true).unwrap();
        let out = graph.out_edges();
        assert_eq!(out.neighbours(1), &[2, 1]);
        assert_eq!(out.neighbours(0), &[1]);
        let both = graph.incident_edges();
        assert_eq!(both.neighbours(1), &[0, 2, 1]);
        assert_eq!(
            both.entries(1).collect::<Vec<_>>(),
            vec![(0, 0), (2, 1), (1, 2)]
        );
        assert_eq!(both.vertex_count(), 3);
    }
}
