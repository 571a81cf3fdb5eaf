// The tiny model generators use the kit's one seeded PRNG (mulberry32).
export { seededRandom as mulberry32 } from "../../../lib/util.js";
