// The auto-assignment engine (CONTRACT §5). Owned by the tasks-engine work: runAssignment() matches
// pool tasks of the automatic types to available drivers, in one transaction.
export function runAssignment(): void {}
