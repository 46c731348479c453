export {
  ActorHost,
  type ActorAddress,
  type ActorView,
  type ActorHostOptions,
} from './actor-host.js';
