import { X509Certificate, createPublicKey, createPrivateKey } from 'node:crypto';
import { generateCertificate, toPem } from '../../../src/tfplugin/protocol/certificate';

describe('generateCertificate', () => {
  const generated = generateCertificate();
  const certificate = new X509Certificate(generated.der);

  it('produces a DER certificate that node:crypto parses, PEM and DER agreeing', () => {
    expect(new X509Certificate(generated.certPem).raw).toEqual(generated.der);
    expect(generated.certPem).toBe(toPem(generated.der, 'CERTIFICATE'));
  });

  it('is self-signed: its signature verifies with its own public key', () => {
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.checkIssued(certificate)).toBe(true);
    const other = new X509Certificate(generateCertificate().der);
    expect(certificate.verify(other.publicKey)).toBe(false);
  });

  it('names localhost in the subject alternative name, as the Terraform client requires', () => {
    expect(certificate.subjectAltName).toBe('DNS:localhost');
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.subject).toBe('O=HashiCorp\nCN=localhost');
  });

  it("follows go-plugin's template: ECDSA P-256 CA key, server and client auth", () => {
    expect(certificate.publicKey.asymmetricKeyType).toBe('ec');
    expect(certificate.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(certificate.ca).toBe(true);
    expect(certificate.keyUsage?.sort()).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
  });

  it('is valid from 30 seconds ago for 30 years (GeneralizedTime past 2049)', () => {
    const now = Date.now();
    const from = Date.parse(certificate.validFrom);
    const to = Date.parse(certificate.validTo);
    expect(now - from).toBeGreaterThanOrEqual(29_000);
    expect(now - from).toBeLessThan(120_000);
    expect((to - now) / (365.25 * 24 * 3600_000)).toBeCloseTo(30, 0);
  });

  it('returns the private key that matches the certificate', () => {
    const publicFromKey = createPublicKey(createPrivateKey(generated.keyPem)).export({ type: 'spki', format: 'der' });
    expect(publicFromKey).toEqual(certificate.publicKey.export({ type: 'spki', format: 'der' }));
  });

  it('encodes UTCTime before 2050 and honours the given validity and names', () => {
    const custom = new X509Certificate(
      generateCertificate({
        notBefore: new Date('2020-01-02T03:04:05Z'),
        notAfter: new Date('2049-12-31T23:59:59Z'),
        commonName: 'example',
        organization: 'Example',
        dnsNames: ['a.example', 'b.example'],
      }).der,
    );
    expect(custom.validFrom).toBe('Jan  2 03:04:05 2020 GMT');
    expect(custom.validTo).toBe('Dec 31 23:59:59 2049 GMT');
    expect(custom.subject).toBe('O=Example\nCN=example');
    expect(custom.subjectAltName).toBe('DNS:a.example, DNS:b.example');
  });

  it('gives every certificate a fresh key and serial number', () => {
    const other = new X509Certificate(generateCertificate().der);
    expect(other.serialNumber).not.toBe(certificate.serialNumber);
    expect(other.fingerprint256).not.toBe(certificate.fingerprint256);
  });
});
