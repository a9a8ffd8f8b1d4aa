"""A real browser's offer (Chromium's, candidates and all), for the invite codes' tests
and the fake peers of ``tests.online_pages``."""

__all__ = ["CHROMIUM_OFFER"]

CHROMIUM_OFFER = """v=0\r
o=- 4611731400430051336 2 IN IP4 127.0.0.1\r
s=-\r
t=0 0\r
a=group:BUNDLE 0\r
a=extmap-allow-mixed\r
a=msid-semantic: WMS\r
m=application 58129 UDP/DTLS/SCTP webrtc-datachannel\r
c=IN IP4 192.168.1.20\r
a=candidate:3324277395 1 udp 2122260223 192.168.1.20 58129 typ host generation 0 network-id 1\r
a=candidate:1736423455 1 udp 2122262783 fd00::1:2 49152 typ host generation 0 network-id 2\r
a=candidate:2999745851 1 tcp 1518280447 192.168.1.20 9 typ host tcptype active generation 0\r
a=candidate:842163049 1 udp 1686052607 203.0.113.7 58129 typ srflx raddr 192.168.1.20 \
rport 58129 generation 0\r
a=ice-ufrag:y3Vb\r
a=ice-pwd:Qx0h5MDoA1DEk1j2jtHnZ9+/\r
a=ice-options:trickle\r
a=fingerprint:sha-256 3D:0A:A1:B2:C3:D4:E5:F6:07:18:29:3A:4B:5C:6D:7E:\
8F:90:A1:B2:C3:D4:E5:F6:07:18:29:3A:4B:5C:6D:7E\r
a=setup:actpass\r
a=mid:0\r
a=sctp-port:5000\r
a=max-message-size:262144\r
"""
