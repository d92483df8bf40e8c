// How requests reach the service: proxies, certificate trust, and the connections made with them.
export { Network, environmentNetwork, ENVIRONMENT_ONLY, type NetworkSettings, type Route } from './network';
export { chooseProxy, bypassesProxy, noProxyEntries, parseProxyUrl, proxyLabel, type ProxyChoice, type ProxySettings, type ProxySupport } from './proxy';
export { loadTrust, type Trust, type TrustSettings } from './trust';
export { ProxyTunnelError } from './tunnel';
export { connectionReport, type ConnectionFacts, type ConnectionReport } from './report';
