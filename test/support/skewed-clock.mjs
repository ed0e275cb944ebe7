// Loaded with `node --import` into a server child: its system clock (Date.now) runs
// SKEWED_CLOCK_MS ahead of the machine's, as a host whose clock drifted would.
const skew = Number(process.env.SKEWED_CLOCK_MS ?? 0);
const machineNow = Date.now.bind(Date);
Date.now = () => machineNow() + skew;
