import { coreBenchmark } from './core';
console.log(coreBenchmark((line) => console.error(line)));
