#!/usr/bin/env bash
# The side-by-side benchmark: helpdesk vs LangChain agent middleware vs a naive LangGraph agent.
# Writes report.md, report.json and report.png to benchmarks/results/ (or --out DIR).
# Usage: benchmarks/run.sh [--turns N] [--seed S] [--out DIR] [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
exec helpdesk bench "$@"
