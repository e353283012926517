/** The grpc-message trailer encoding of the gRPC server (percent-encoding per the gRPC protocol). */
import { encodeGrpcMessage } from '../../../src/tfplugin/protocol/grpc-server';

describe('encodeGrpcMessage', () => {
  it('leaves printable ASCII as is, punctuation included', () => {
    expect(encodeGrpcMessage('the definition is "demo", expected "other" (a/b?c=d)')).toBe('the definition is "demo", expected "other" (a/b?c=d)');
  });

  it('percent-encodes the percent sign, control characters and non-ASCII as UTF-8 bytes', () => {
    expect(encodeGrpcMessage('100% done\nnext')).toBe('100%25 done%0Anext');
    expect(encodeGrpcMessage('café ✓')).toBe('caf%C3%A9 %E2%9C%93');
  });

  it('round-trips through percent-decoding', () => {
    const message = 'line 1\nline 2: 50% of "é", done';
    expect(decodeURIComponent(encodeGrpcMessage(message))).toBe(message);
  });
});
