//! Tests of scripted games.
use super::*;
