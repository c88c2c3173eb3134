// The words of a Spanish line-haul yard: people's names, the yard's places, trailer plates, routes
// and the notes a gestor writes on a task.
import type { LocationKind, TaskTitle, VehicleType } from '@shared/enums';
import type { Location } from '@shared/schemas';
import { placeKey } from '@shared/text';
import type { Rng } from './random';

export const FIRST_NAMES = [
  'Antonio', 'José', 'Manuel', 'Francisco', 'David', 'Juan', 'Javier', 'Daniel', 'Carlos', 'Jesús',
  'Alejandro', 'Miguel', 'Rafael', 'Pedro', 'Pablo', 'Ángel', 'Sergio', 'Fernando', 'Jorge', 'Luis',
  'Alberto', 'Álvaro', 'Rubén', 'Iván', 'Raúl', 'Óscar', 'Adrián', 'Diego', 'Víctor', 'Mario',
  'Enrique', 'Ramón', 'Vicente', 'Joaquín', 'Andrés', 'Iker', 'Unai', 'Jordi', 'Xavier', 'Marc',
  'María', 'Carmen', 'Ana', 'Isabel', 'Laura', 'Cristina', 'Marta', 'Lucía', 'Elena', 'Pilar',
  'Raquel', 'Sara', 'Paula', 'Nuria', 'Rocío', 'Silvia', 'Beatriz', 'Patricia', 'Irene', 'Alba',
  'Noelia', 'Montserrat', 'Ainhoa', 'Nerea', 'Inmaculada', 'Mercedes', 'Begoña', 'Yolanda',
] as const; // prettier-ignore

export const SURNAMES = [
  'García', 'Rodríguez', 'González', 'Fernández', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez',
  'Martín', 'Jiménez', 'Ruiz', 'Hernández', 'Díaz', 'Moreno', 'Muñoz', 'Álvarez', 'Romero', 'Alonso',
  'Gutiérrez', 'Navarro', 'Torres', 'Domínguez', 'Vázquez', 'Ramos', 'Gil', 'Ramírez', 'Serrano',
  'Blanco', 'Molina', 'Morales', 'Suárez', 'Ortega', 'Delgado', 'Castro', 'Ortiz', 'Rubio', 'Marín',
  'Sanz', 'Núñez', 'Iglesias', 'Medina', 'Garrido', 'Cortés', 'Castillo', 'Santos', 'Lozano',
  'Guerrero', 'Cano', 'Prieto', 'Méndez', 'Cruz', 'Calvo', 'Gallego', 'Herrera', 'Márquez', 'León',
  'Peña', 'Flores', 'Cabrera', 'Campos', 'Vega', 'Fuentes', 'Carrasco', 'Díez', 'Caballero', 'Reyes',
  'Nieto', 'Aguilar', 'Pascual', 'Santana', 'Herrero', 'Lorenzo', 'Montero', 'Hidalgo', 'Giménez',
  'Ibáñez', 'Ferrer', 'Durán', 'Santiago', 'Benítez', 'Mora', 'Vicente', 'Vargas', 'Arias', 'Carmona',
  'Crespo', 'Román', 'Pastor', 'Soto', 'Sáez', 'Velasco', 'Moya', 'Soler', 'Parra', 'Esteban',
  'Bravo', 'Gallardo', 'Rojas', 'Etxeberria', 'Puig', 'Otero', 'Castaño', 'Quintana', 'Zamora',
] as const; // prettier-ignore

/** Where the yard's trailers come from and go to. */
export const CITIES = [
  'Zaragoza', 'Barcelona', 'Valencia', 'Sevilla', 'Bilbao', 'Vigo', 'A Coruña', 'Málaga', 'Murcia',
  'Valladolid', 'Alicante', 'Córdoba', 'Granada', 'Pamplona', 'Vitoria', 'Santander', 'Oviedo',
  'Burgos', 'León', 'Salamanca', 'Badajoz', 'Tarragona', 'Lleida', 'Girona', 'Castellón', 'Almería',
  'Huelva', 'Algeciras', 'Jaén', 'Logroño', 'Toledo', 'Guadalajara', 'Lisboa', 'Oporto', 'Perpiñán',
  'Toulouse', 'Burdeos', 'Lyon',
] as const; // prettier-ignore

/** 'Lucía García Martín', and the ASCII local part of an email: 'lucia.garcia'. */
export function personName(rng: Rng): { name: string; emailLocal: string } {
  const first = rng.pick(FIRST_NAMES);
  const last1 = rng.pick(SURNAMES);
  let last2 = rng.pick(SURNAMES);
  while (last2 === last1) last2 = rng.pick(SURNAMES);
  const ascii = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  return { name: `${first} ${last1} ${last2}`, emailLocal: `${ascii(first)}.${ascii(last1)}` };
}

// ---- The yard's places --------------------------------------------------------------------------

export type PlaceKind = 'muelle' | 'campa' | 'swap' | 'exterior' | 'servicio';
export interface Place {
  kind: PlaceKind;
  name: string;
}

export const DOCKS = 40;
export const CAMPA_ROWS = ['A', 'B', 'C', 'D', 'E', 'F'] as const;
export const SWAP_ZONES = 8;
/** The service points and how many trailers each holds at once. */
export const SERVICE_POINTS = { Báscula: 2, Taller: 4, Lavadero: 2 } as const;
export const GATE = 'Puerta';

/**
 * How big the yard is: the campa rows and the outside car park grow with the fleet, so that every trailer
 * has a slot and a move finds a free one (CONTRACT §17: the generated moves respect the capacities).
 */
export interface YardPlan {
  campaSlots: number;
  exteriorSlots: number;
  /** Trailers one swap zone holds. */
  swapCapacity: number;
}

/** Slots per trailer: a yard about two thirds full, with room for the trailers that join later. */
const SLACK = 1.5;

export function yardPlan(semis: number, swapBodies: number): YardPlan {
  const exteriorSlots = Math.max(20, Math.ceil(semis * 0.12));
  return {
    exteriorSlots,
    campaSlots: Math.max(30, Math.ceil((semis * SLACK - DOCKS - exteriorSlots) / CAMPA_ROWS.length)),
    swapCapacity: Math.max(6, Math.ceil((swapBodies * SLACK) / SWAP_ZONES)),
  };
}

/** The yard of the smallest fleet: the names of a yard whose catalogue nobody checks (a bench's). */
export const SMALLEST_YARD = yardPlan(0, 0);

/** The plan a catalogue of this yard was made from (the demo reads it back from GET /yard). */
export function planOf(places: readonly { name: string; capacity: number }[]): YardPlan {
  const count = (re: RegExp) => places.filter((p) => re.test(p.name)).length;
  return {
    campaSlots: count(/^Campa A-\d+$/),
    exteriorSlots: count(/^Aparcamiento Exterior P-\d+$/),
    swapCapacity: places.find((p) => p.name === 'Zona Swap 1')?.capacity ?? 0,
  };
}

/** A place of the catalogue (CONTRACT §17), laid out on the map's grid of its zone. */
export type CataloguePlace = Omit<Location, 'id' | 'active'>;

/** Columns of a zone's grid on the map. */
const ROW_WIDTH = 20;
const cell = (n: number) => ({ x: (n - 1) % ROW_WIDTH, y: Math.floor((n - 1) / ROW_WIDTH) });

/** The catalogue of the yard: every name randomPlace() can give, plus the gate. */
export function yardCatalogue(plan: YardPlan): CataloguePlace[] {
  const places: CataloguePlace[] = [];
  for (let n = 1; n <= DOCKS; n++)
    places.push({ code: `MUELLE-${n}`, name: `Muelle ${n}`, kind: 'muelle', zone: 'Muelles', capacity: 1, ...cell(n) });
  for (const row of CAMPA_ROWS)
    for (let n = 1; n <= plan.campaSlots; n++)
      places.push({ code: `CAMPA-${row}-${n}`, name: `Campa ${row}-${n}`, kind: 'campa', zone: `Campa ${row}`, capacity: 1, ...cell(n) });
  for (let n = 1; n <= SWAP_ZONES; n++)
    places.push({ code: `SWAP-${n}`, name: `Zona Swap ${n}`, kind: 'zona_swap', zone: 'Zona Swap', capacity: plan.swapCapacity, ...cell(n) });
  for (let n = 1; n <= plan.exteriorSlots; n++)
    places.push({ code: `EXT-P-${n}`, name: `Aparcamiento Exterior P-${n}`, kind: 'aparcamiento', zone: 'Aparcamiento Exterior', capacity: 1, ...cell(n) });
  Object.entries(SERVICE_POINTS).forEach(([name, capacity], i) =>
    places.push({ code: placeKey(name).toUpperCase(), name, kind: SERVICE_KINDS[name as ServicePoint], zone: 'Servicios', capacity, ...cell(i + 1) }),
  );
  places.push({ code: 'PUERTA', name: GATE, kind: 'puerta', zone: 'Accesos', capacity: 1, ...cell(1) });
  return places;
} // prettier-ignore

type ServicePoint = keyof typeof SERVICE_POINTS;
const SERVICE_KINDS: Record<ServicePoint, LocationKind> = {
  Báscula: 'bascula',
  Taller: 'taller',
  Lavadero: 'lavadero',
};

const randomPlace = (rng: Rng, kind: PlaceKind, plan: YardPlan): Place => {
  switch (kind) {
    case 'muelle':
      return { kind, name: `Muelle ${rng.int(1, DOCKS)}` };
    case 'campa':
      return { kind, name: `Campa ${rng.pick(CAMPA_ROWS)}-${rng.int(1, plan.campaSlots)}` };
    case 'swap':
      return { kind, name: `Zona Swap ${rng.int(1, SWAP_ZONES)}` };
    case 'exterior':
      return { kind, name: `Aparcamiento Exterior P-${rng.int(1, plan.exteriorSlots)}` };
    case 'servicio':
      return { kind, name: rng.pick(Object.keys(SERVICE_POINTS) as ServicePoint[]) };
  }
};

/** The place a name of this yard stands for ('Campa A-12' → campa); null for any other name. */
export function placeNamed(name: string): Place | null {
  if (/^Muelle \d+$/.test(name)) return { kind: 'muelle', name };
  if (/^Campa [A-Z]-\d+$/.test(name)) return { kind: 'campa', name };
  if (/^Zona Swap \d+$/.test(name)) return { kind: 'swap', name };
  if (/^Aparcamiento Exterior P-\d+$/.test(name)) return { kind: 'exterior', name };
  if (name in SERVICE_POINTS) return { kind: 'servicio', name };
  return null;
}

/** Whether a place can take one more trailer (the caller's count against the catalogue's capacity). */
export type HasRoom = (place: Place) => boolean;
const anywhere: HasRoom = () => true;

/** Random draws of a place with room before any kind will do; then the yard is full. */
const TRIES_OF_KIND = 60;
const TRIES_IN_ALL = 20_000;
const KINDS: PlaceKind[] = ['campa', 'muelle', 'swap', 'exterior', 'servicio'];

/** A place with room, of the weighted kinds if one is found soon, else of any kind. */
function placeWithRoom(rng: Rng, kinds: Choice, plan: YardPlan, ok: (p: Place) => boolean): Place {
  for (let i = 0; i < TRIES_OF_KIND + TRIES_IN_ALL; i++) {
    const place = randomPlace(rng, i < TRIES_OF_KIND ? rng.weighted(kinds) : rng.pick(KINDS), plan);
    if (ok(place)) return place;
  }
  throw new Error('generateYard: el patio no tiene sitio para otro remolque');
}

/** Where a trailer of the fleet stands before the history starts. */
export const initialPlace = (rng: Rng, swapBody: boolean, plan: YardPlan, hasRoom: HasRoom = anywhere): Place =>
  placeWithRoom(rng, swapBody ? [['swap', 4], ['muelle', 1]] : [['campa', 8], ['muelle', 2], ['exterior', 1]], plan, hasRoom); // prettier-ignore

type Choice = readonly (readonly [PlaceKind, number])[];
/** Mover takes a trailer to another kind of place; Recolocar to another spot of the same kind. */
const MOVER: Record<VehicleType, Record<PlaceKind, Choice>> = {
  semiremolque: {
    campa: [['muelle', 6], ['servicio', 2]],
    muelle: [['campa', 7], ['servicio', 1]],
    servicio: [['campa', 3], ['muelle', 2]],
    exterior: [['campa', 2], ['muelle', 3]],
    swap: [['muelle', 1]],
  },
  // Out KM0: the trailer leaves for (or comes back from) the outside car park.
  semiremolque_out_km0: {
    campa: [['exterior', 1]],
    muelle: [['exterior', 1]],
    servicio: [['exterior', 1]],
    exterior: [['muelle', 2], ['campa', 1]],
    swap: [['exterior', 1]],
  },
  swap: {
    swap: [['muelle', 1]],
    muelle: [['swap', 4], ['servicio', 1]],
    servicio: [['swap', 1]],
    campa: [['swap', 1]],
    exterior: [['swap', 1]],
  },
}; // prettier-ignore
const RECOLOCAR: Record<VehicleType, readonly PlaceKind[]> = {
  semiremolque: ['campa', 'muelle'],
  semiremolque_out_km0: ['exterior'],
  swap: ['swap', 'muelle'],
};

/**
 * The movement a trailer standing at `origin` gets: its title and a destination other than the origin,
 * with room for it.
 */
export function moveFor(
  rng: Rng,
  type: VehicleType,
  origin: Place,
  plan: YardPlan,
  hasRoom: HasRoom = anywhere,
): { title: TaskTitle; destination: Place } {
  const title: TaskTitle = RECOLOCAR[type].includes(origin.kind) && rng.chance(0.3) ? 'Recolocar' : 'Mover';
  const kinds: Choice = title === 'Recolocar' ? [[origin.kind, 1]] : MOVER[type][origin.kind];
  const destination = placeWithRoom(rng, kinds, plan, (p) => p.name !== origin.name && hasRoom(p));
  return { title, destination };
}

// ---- Plates -------------------------------------------------------------------------------------

/** Letters of Spanish plates: consonants only, no Ñ or Q. */
const PLATE_LETTERS = 'BCDFGHJKLMNPRSTVWXYZ';
const digits = (rng: Rng, n: number) => String(rng.int(0, 10 ** n - 1)).padStart(n, '0');
const letters = (rng: Rng, n: number) =>
  Array.from({ length: n }, () => PLATE_LETTERS[rng.int(0, PLATE_LETTERS.length - 1)]).join('');

/** A semi-trailer: trailer plate 'R-1234-BCD' (most) or a tractor-style '1234 BCD'; a swap body 'SW-0457'. */
export function plate(rng: Rng, swapBody: boolean): string {
  if (swapBody) return `SW-${digits(rng, 4)}`;
  return rng.chance(0.75) ? `R-${digits(rng, 4)}-${letters(rng, 3)}` : `${digits(rng, 4)} ${letters(rng, 3)}`;
}

// ---- What a gestor writes on a task -------------------------------------------------------------

const hhmm = (rng: Rng) => `${String(rng.int(5, 23)).padStart(2, '0')}:${rng.pick(['00', '15', '30', '45'])}`;
const NOTES: readonly ((rng: Rng) => string)[] = [
  (r) => `Cargado para ruta ${r.pick(CITIES)}`,
  (r) => `Cargado para ruta ${r.pick(CITIES)}, salida a las ${hhmm(r)}`,
  (r) => `Llega de ${r.pick(CITIES)}, pendiente de descarga`,
  (r) => `Vacío para carga en ${r.pick(CITIES)}`,
  () => 'Vacío, revisar luces',
  () => 'Vacío, revisar presión de neumáticos',
  (r) => `Precinto ${r.int(100000, 999999)}`,
  (r) => `Refrigerado a ${r.pick(['-18', '-20', '2', '4'])} °C, conectar a la toma`,
  () => 'Frigo apagado, vacío',
  () => 'Descarga urgente, el cliente espera',
  () => 'Mercancía ADR: aparcar en la zona señalizada',
  () => 'Pasar por báscula antes de salir',
  () => 'Retorno de palets vacíos',
  () => 'Lona rota, avisar al taller',
  () => 'Doble piso, cuidado con la altura',
  (r) => `Cambio de muelle pedido por ${r.pick(['tráfico', 'almacén', 'el cliente'])}`,
];

/** A task's description: often none, otherwise a short yard note. */
export const description = (rng: Rng): string | null => (rng.chance(0.4) ? null : rng.pick(NOTES)(rng));

// ---- The gate -----------------------------------------------------------------------------------

/** The line-haul carriers whose trucks come through the gate (invented names, none a real company). */
export const CARRIERS = [
  'Transportes Hermanos Ebro', 'Trans Meseta Norte', 'Logística Guadalquivir Sur', 'Cargas Sierra de Gata',
  'Cargas Rápidas del Cantábrico', 'Frigoríficos Vega del Segura', 'Rutas Ibéricas del Duero', 'Transmoncayo',
  'Levante Exprés Carga', 'Tajo Logística Integral', 'Portes Galaicos Atlántico', 'Trans Pirineo Central',
] as const; // prettier-ignore

/** A truck's (tractor's) plate: '1234 BCD'. */
export const truckPlate = (rng: Rng): string => `${digits(rng, 4)} ${letters(rng, 3)}`;
