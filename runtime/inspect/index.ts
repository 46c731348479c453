export { MachineRegistry } from './registry.js';
