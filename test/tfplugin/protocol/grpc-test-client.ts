/**
 * A gRPC client for tests, built on @grpc/grpc-js (an independent implementation, so the
 * server is checked against something other than itself), with the provider's own protobuf
 * codec for messages. Connects the way go-plugin does: unix socket, server name localhost,
 * trusting only the certificate from the handshake line, presenting a client certificate.
 */
import * as grpc from '@grpc/grpc-js';
import { PROTOCOL_DESCRIPTOR } from '../../../src/tfplugin/protocol/descriptor';
import { ProtoCodec, type ProtoMessage } from '../../../src/tfplugin/protocol/protobuf';
import { toPem, type GeneratedCertificate } from '../../../src/tfplugin/protocol/certificate';

/** Parsed go-plugin handshake line. */
export interface Handshake {
  readonly core: string;
  readonly protocol: string;
  readonly network: string;
  readonly address: string;
  readonly kind: string;
  readonly certificate: string;
}

/** Splits a handshake line into its fields. */
export function parseHandshake(line: string): Handshake {
  const [core, protocol, network, address, kind, certificate] = line.trim().split('|');
  return { core: core!, protocol: protocol!, network: network!, address: address!, kind: kind!, certificate: certificate ?? '' };
}

const codec = new ProtoCodec(PROTOCOL_DESCRIPTOR);

/** A connected test client. */
export class TestClient {
  private readonly client: grpc.Client;

  constructor(handshake: Handshake, clientCertificate?: GeneratedCertificate) {
    const credentials = handshake.certificate
      ? grpc.credentials.createSsl(
          Buffer.from(toPem(Buffer.from(handshake.certificate, 'base64'), 'CERTIFICATE')),
          clientCertificate ? Buffer.from(clientCertificate.keyPem) : null,
          clientCertificate ? Buffer.from(clientCertificate.certPem) : null,
        )
      : grpc.credentials.createInsecure();
    // A unix socket's path, or `127.0.0.1:PORT` (the TCP transport).
    this.client = new grpc.Client(handshake.network === 'tcp' ? handshake.address : `unix:${handshake.address}`, credentials, {
      'grpc.ssl_target_name_override': 'localhost',
      'grpc.default_authority': 'localhost',
    });
  }

  /** Calls a unary method, e.g. `call('tfplugin6.Provider', 'GetProviderSchema', {})`. */
  call(service: string, method: string, request: ProtoMessage, deadlineMs = 5000): Promise<ProtoMessage> {
    // A service missing from the descriptor is called with empty messages (to probe UNIMPLEMENTED).
    let definition: { requestType: string; responseType: string } | undefined;
    try {
      definition = codec.service(service)[method];
    } catch {
      definition = undefined;
    }
    const scope = service.slice(0, service.lastIndexOf('.'));
    const requestType = definition ? codec.resolve(definition.requestType, scope) : 'plugin.Empty';
    const responseType = definition ? codec.resolve(definition.responseType, scope) : 'plugin.Empty';
    return new Promise((resolve, reject) => {
      this.client.makeUnaryRequest(
        `/${service}/${method}`,
        (message: ProtoMessage) => codec.encode(requestType, message),
        (bytes: Buffer) => codec.decode(responseType, bytes),
        request,
        { deadline: Date.now() + deadlineMs },
        (error, response) => (error ? reject(error) : resolve(response!)),
      );
    });
  }

  /** Closes the channel. */
  close(): void {
    this.client.close();
  }
}
