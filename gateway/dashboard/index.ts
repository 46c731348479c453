// The web dashboard's static files (the app itself is dashboard/, built by vite).
export {
  dashboardRoutes,
  defaultDashboardDir,
  loadDashboard,
  type DashboardFile,
  type DashboardRoutesDeps,
} from './dashboard-routes.js';
