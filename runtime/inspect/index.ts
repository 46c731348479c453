export { MachineRegistry } from './registry.js';
export { machineGraph, type GraphFormat } from './graph.js';
export {
  ActorInspection,
  INSPECT_PROTOCOL_VERSION,
  type InspectFilter,
  type InspectionEvent,
  type InspectedSnapshot,
} from './inspection.js';
