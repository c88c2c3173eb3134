import '@testing-library/jest-dom/vitest';
// IndexedDB for the phone's offline queue (client/src/offline/outbox-db.ts): jsdom has none.
import 'fake-indexeddb/auto';
