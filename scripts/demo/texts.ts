// What `npm run demo` writes on its console (the app's own texts live in shared/labels).
import type { Priority, Role, TaskTitle } from '@shared/enums';
import { PRIORITY_LABELS, ROLE_LABELS } from '@shared/labels';

interface TaskLine {
  title: TaskTitle;
  trailer_id: string;
  origin: string;
  destination: string;
  priority: Priority;
}

interface GateLine {
  truck_plate: string;
  carrier: string;
  dropped_trailer_id: string | null;
  picked_trailer_id: string | null;
}

const move = (t: TaskLine) => `${t.title} ${t.trailer_id}: ${t.origin} → ${t.destination}`;

export const DEMO_TEXT = {
  generating: (file: string) => `Generando el patio de demostración en ${file}…`,
  reusing: (file: string) =>
    `Usando el patio de demostración de ${file} (npm run demo -- --fresh para generar uno nuevo).`,
  ready: (url: string) => `\nTorre de Control (demo) en ${url}\n`,
  loginsTitle: 'Accesos de la demo:',
  loginLine: (role: Role, email: string, password: string, name: string, note: string) =>
    `  ${ROLE_LABELS[role].padEnd(13)} ${email.padEnd(34)} ${password.padEnd(14)} ${name}${note ? `  (${note})` : ''}`,
  simulated: 'simulado',
  freeDriver: 'libre: entra tú',
  passwordsChanged: '  (si cambiaste alguna contraseña en la demo, sigue valiendo la tuya)',
  wallHint:
    'Abre el tablero como administrador y pulsa «Modo pantalla»: el gestor simulado crea tareas y los conductores simulados las hacen.',
  stopHint: 'Ctrl-C para parar.\n',
  stopping: '\nParando la demo…',
  stopped: 'Demo parada.',
  portBusy: (port: number) => `El puerto ${port} está ocupado: prueba con DEMO_PORT=${port + 1} npm run demo`,
  // One line per simulated action.
  created: (who: string, t: TaskLine) =>
    `${who} crea ${move(t)}${t.priority === 'normal' ? '' : ` (prioridad ${PRIORITY_LABELS[t.priority]})`}`,
  clockIn: (who: string) => `${who} ficha la entrada`,
  clockOut: (who: string) => `${who} ficha la salida`,
  received: (who: string, t: TaskLine) => `${who} recibe ${move(t)}`,
  claimed: (who: string, t: TaskLine) => `${who} se asigna ${move(t)}`,
  completed: (who: string, t: TaskLine) => `${who} completa ${t.title} ${t.trailer_id} (en ${t.destination})`,
  returned: (who: string, t: TaskLine, reason: string) =>
    `${who} devuelve ${t.trailer_id} a la bolsa: ${reason}`,
  gateEntry: (who: string, v: GateLine, place: string | null) =>
    `${who} registra la entrada de ${v.truck_plate} (${v.carrier})${v.dropped_trailer_id ? `, deja ${v.dropped_trailer_id}${place ? ` en ${place}` : ''}` : ''}`,
  gateExit: (who: string, v: GateLine) =>
    `${who} registra la salida de ${v.truck_plate} (${v.carrier})${v.picked_trailer_id ? `, se lleva ${v.picked_trailer_id}` : ''}`,
  failed: (who: string, detail: string) => `⚠ ${who}: ${detail}`,
};
