'use strict';

/** @param {...unknown} args */
const log = (...args) => console.error(new Date().toISOString().slice(11, 19), ...args);
/** @param {number} ms @returns {Promise<void>} */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = { log, sleep };
