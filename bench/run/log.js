'use strict';

const log = (...args) => console.error(new Date().toISOString().slice(11, 19), ...args);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { log, sleep };
