// The staff views of /dashboard (SPEC §2): the component and header icon of each. A view is added by
// building its folder under views/ and pointing its entry here; who sees it is in permissions.ts.
import { lazy, type ComponentType } from 'react';
import {
  ChartColumn,
  Clock,
  DoorOpen,
  FileText,
  Handshake,
  House,
  Map as MapIcon,
  MapPin,
  Search,
  Settings,
  TrendingUp,
  Users,
  type LucideIcon,
} from 'lucide-react';
import type { View } from '@shared/enums';
import { BoardView } from '../Board/BoardView';

// The board is what the wall screen opens on; every other view is loaded when first opened, so the
// initial JavaScript stays small (performance budget in docs/PERFORMANCE.md).
export const VIEW_COMPONENTS: Record<View, ComponentType> = {
  dashboard: BoardView,
  yard: lazy(() => import('../Yard/YardView').then((m) => ({ default: m.YardView }))),
  gate: lazy(() => import('../Gate/GateView').then((m) => ({ default: m.GateView }))),
  handover: lazy(() => import('../Handover/HandoverView').then((m) => ({ default: m.HandoverView }))),
  searcher: lazy(() => import('../Searcher/SearcherView').then((m) => ({ default: m.SearcherView }))),
  timecontrol: lazy(() =>
    import('../TimeControl/TimeControlView').then((m) => ({ default: m.TimeControlView })),
  ),
  reports: lazy(() => import('../Reports/ReportsView').then((m) => ({ default: m.ReportsView }))),
  indicators: lazy(() => import('../Indicators/IndicatorsView').then((m) => ({ default: m.IndicatorsView }))),
  analytics: lazy(() => import('../Analytics/AnalyticsView').then((m) => ({ default: m.AnalyticsView }))),
  users: lazy(() => import('../Users/UsersView').then((m) => ({ default: m.UsersView }))),
  locations: lazy(() => import('../Locations/LocationsView').then((m) => ({ default: m.LocationsView }))),
  'admin-panel': lazy(() =>
    import('../AdminPanel/AdminPanelView').then((m) => ({ default: m.AdminPanelView })),
  ),
};

export const VIEW_ICONS: Record<View, LucideIcon> = {
  dashboard: House,
  yard: MapIcon,
  gate: DoorOpen,
  handover: Handshake,
  searcher: Search,
  timecontrol: Clock,
  reports: FileText,
  indicators: TrendingUp,
  analytics: ChartColumn,
  users: Users,
  locations: MapPin,
  'admin-panel': Settings,
};
