// `npm run demo`: a living yard on its own database (./data/demo.db, never the default ./data/torre.db),
// the real server on DEMO_PORT (3000), the demo logins, and a simulated gestor and drivers that keep the
// board moving until Ctrl-C. See docs/DEMO.md.
import { DEMO_USAGE, demoEnv, demoSettings } from './demo/settings';

if (process.argv.includes('--help')) {
  console.log(DEMO_USAGE);
} else {
  const settings = demoSettings(process.env, process.argv.slice(2));
  // The server's config module reads the environment once, when first imported: set it before.
  demoEnv(process.env, settings);
  const { runDemo } = await import('./demo/run');
  await runDemo(settings);
}
