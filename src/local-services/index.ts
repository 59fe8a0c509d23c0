export { EmbeddedPostgres } from './embedded-postgres';
export { LocalRedis, REDIS_MISSING, redisAnswers } from './local-redis';
export { joinServers, leaveServers, startLocalServices, type LocalServices } from './local-services';
