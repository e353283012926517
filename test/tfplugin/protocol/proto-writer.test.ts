/**
 * ProtoWriter against protobufjs's Writer (an independent implementation): seeded random runs of
 * varints, strings, bytes and nested length-delimited fields, nested lengths on each side of the
 * varint size steps (127/128, 16383/16384, 2097151/2097152), must give the same bytes.
 */
import * as protobuf from 'protobufjs';
import { ProtoWriter } from '../../../src/tfplugin/protocol/proto-writer';
import { seededRandom } from '../../helpers/seeded-random';

/** One write, applied to both writers. */
type Step = (ours: ProtoWriter, theirs: protobuf.Writer) => void;

const VARINTS = [0, 1, 127, 128, 255, 16383, 16384, 2 ** 21 - 1, 2 ** 21, 2 ** 28, 2 ** 31 - 1, 2 ** 32, 2 ** 53 - 1, -1, -(2 ** 31), -(2 ** 40)];

function varintStep(value: number): Step {
  return (ours, theirs) => {
    ours.varint(value);
    // protobufjs: uint32 below 2^32, int64 (two's complement) for negatives and larger values.
    if (value >= 0 && value < 2 ** 32) theirs.uint32(value);
    else theirs.int64(value);
  };
}

function stringOf(length: number, random: () => number): string {
  const alphabet = ['a', 'Z', '0', ' ', 'é', '€', '𝄞'];
  let text = '';
  while (text.length < length) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}

/** A nested field holding one bytes field of `length` bytes, written through begin/end. */
function nestedHolding(length: number): Step {
  const body = Buffer.alloc(length, 7);
  return (ours, theirs) => {
    const mark = ours.beginDelimited();
    theirs.fork();
    ours.bytes(body);
    theirs.bytes(body);
    ours.endDelimited(mark);
    theirs.ldelim();
  };
}

function randomSteps(random: () => number, depth: number): Step[] {
  const steps: Step[] = [];
  const count = 1 + Math.floor(random() * 6);
  for (let i = 0; i < count; i++) {
    const pick = random();
    if (pick < 0.3) steps.push(varintStep(VARINTS[Math.floor(random() * VARINTS.length)]!));
    else if (pick < 0.5) {
      const text = stringOf(Math.floor(random() * 300), random);
      steps.push((ours, theirs) => (ours.string(text), theirs.string(text)));
    } else if (pick < 0.65) {
      const data = Buffer.from(Array.from({ length: Math.floor(random() * 200) }, () => Math.floor(random() * 256)));
      steps.push((ours, theirs) => (ours.bytes(data), theirs.bytes(data)));
    } else if (depth < 4) {
      const inner = randomSteps(random, depth + 1);
      steps.push((ours, theirs) => {
        const mark = ours.beginDelimited();
        theirs.fork();
        for (const step of inner) step(ours, theirs);
        ours.endDelimited(mark);
        theirs.ldelim();
      });
    }
  }
  return steps;
}

function bothWrite(steps: Step[]): [Buffer, Buffer] {
  const ours = new ProtoWriter();
  const theirs = protobuf.Writer.create();
  for (const step of steps) step(ours, theirs);
  return [ours.finish(), Buffer.from(theirs.finish())];
}

it.each(VARINTS)('writes the varint %d as protobufjs does', (value) => {
  const [ours, theirs] = bothWrite([varintStep(value)]);
  expect(ours.toString('hex')).toBe(theirs.toString('hex'));
});

// The nested field's length is `length` plus its own length's varint: these put it on each side of
// the steps where that varint grows (128, 16384, 2097152 bytes).
it.each([0, 1, 125, 126, 127, 128, 16380, 16381, 16382, 16383, 2 ** 21 - 4, 2 ** 21 - 3, 2 ** 21 - 2, 2 ** 21])(
  'writes the length of a nested field holding %d bytes in front of it',
  (length) => {
    const [ours, theirs] = bothWrite([nestedHolding(length), varintStep(300)]);
    expect(ours.equals(theirs)).toBe(true);
  },
);

it('gives the same bytes as protobufjs for 500 seeded random runs of writes', () => {
  const random = seededRandom(0x9e37);
  for (let run = 0; run < 500; run++) {
    const [ours, theirs] = bothWrite(randomSteps(random, 0));
    if (!ours.equals(theirs)) throw new Error(`run ${run}: ${ours.toString('hex')} != ${theirs.toString('hex')}`);
  }
});
