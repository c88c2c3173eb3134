import type { AlertStatus } from '../enums';

export interface WorkloadAlert {
  status: AlertStatus;
  /** When the current status began (ISO): the card shows a non-normal status once it is 60 s old. */
  since: string;
  message: string;
  severity: 0 | 1 | 2;
  recommendations: string[];
  metrics: {
    pending_tasks: number;
    available_drivers: number;
    busy_drivers: number;
    driver_utilization: number;
  };
}

export interface DashboardStats {
  bolsa_trabajo: number;
  en_proceso: number;
  finalizada: number;
  online_drivers: number;
  available_drivers: number;
  busy_drivers: number;
  pending_users: number;
  workload_alert: WorkloadAlert;
}

export interface OnlineDriver {
  id: string;
  name: string;
  movements_count: number;
}

export interface RankingEntry {
  id: string;
  name: string;
  is_online: boolean;
  movements_count: number;
}
