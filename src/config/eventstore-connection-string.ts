/**
 * Start-up check of EVENTSTORE_CONNECTION_STRING (EventStoreDB client connection string,
 * https://developers.eventstore.com/clients/grpc/#connection-string), so a typo fails at start-up
 * with the variable named, not at the first request.
 * @returns what is wrong, phrased to follow the variable's name, or null when it is well formed.
 */
export function eventStoreConnectionStringProblem(value: string): string | null {
  const match = /^(esdb|esdb\+discover):\/\/(?:[^:@/?]+:[^@/?]+@)?([^/?]*)\/?(?:\?(.*))?$/.exec(value);
  if (!match) {
    return `must look like esdb://host:2113?tls=false or esdb+discover://host:2113, got "${redact(value)}"`;
  }
  const [, scheme, hosts = '', query = ''] = match;
  const hostList = hosts.split(',');
  if (hostList.some((host) => !/^[^:,\s]+(?::\d{1,5})?$/.test(host))) {
    return `must name one or more host[:port] separated by commas, got "${redact(value)}"`;
  }
  if (hostList.some((host) => Number(host.split(':')[1] ?? 2113) > 65535)) {
    return `has a port above 65535: "${redact(value)}"`;
  }
  if (scheme === 'esdb+discover' && hostList.length > 1) {
    return 'with esdb+discover:// names one DNS entry (list the nodes with esdb://n1,n2,n3 instead)';
  }
  const options = new Map(
    query
      .split('&')
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string | undefined]),
  );
  if ([...options.values()].some((v) => v === undefined || v === '')) {
    return 'has a query option without a value (use key=value&key=value)';
  }
  const optionNamed = (name: string) =>
    [...options.entries()].find(
      ([key]) => key.toLowerCase().replace(/[-_]/g, '') === name.toLowerCase(),
    )?.[1];
  if (optionNamed('throwOnAppendFailure') === 'false') {
    return 'must not set throwOnAppendFailure=false: the ledger needs wrong-expected-version errors';
  }
  const tls = optionNamed('tls');
  if (tls !== undefined && tls !== 'true' && tls !== 'false')
    return `has tls=${tls}; use tls=true or tls=false`;
  return null;
}

/** `value` with a password replaced by `***`, for error messages. */
function redact(value: string): string {
  return value.replace(/^([^:]+:\/\/[^:@/?]+:)[^@/?]+@/, '$1***@');
}
