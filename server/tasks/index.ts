// The tasks' module (docs/TASKS.md): what routes and other services call. Inside it, each command locks
// the task, decides its move on transitions.ts's table and hands it to apply.ts, the only writer.
export { createOrRepeat, createTask, creationsWritten, tasksWithRef } from './commands/create';
export { updateTask } from './commands/update';
export { selfAssign } from './commands/claim';
export { completeByDriver } from './commands/complete';
export { returnByDriver } from './commands/return';
export { deleteTask } from './commands/delete';
export { releaseDriverTask } from './commands/release-driver';
export { resetRankings } from './commands/reset-rankings';
export { eligibleDrivers, listTasks, myActiveTask, swapAvailable, visibleTask } from './queries';
