// A self-signed certificate for localhost and 127.0.0.1 (the same as tests/server/fixtures'), for
// the load suites' TLS cases only: the bench ships in the package without the tests. Its key is
// public: never serve anything with it but a benchmark on loopback.
export const BENCH_TLS = {
  cert: `-----BEGIN CERTIFICATE-----
MIICiDCCAXCgAwIBAgIUCRBNWat2W4IEoASNFIZjj18dKYAwDQYJKoZIhvcNAQEL
BQAwHDEaMBgGA1UEAwwRd2lyZXNwZWVkIHRlc3QgQ0EwIBcNMjYxMTI2MDk1MzUy
WhgPMjEyNjExMDIwOTUzNTJaMBQxEjAQBgNVBAMMCWxvY2FsaG9zdDBZMBMGByqG
SM49AgEGCCqGSM49AwEHA0IABD6SwFeNi3icC+b1gYEeyzRUpiMenZ5pP1K6NG8K
IzMzflc5V2szAarsfSiwPGrNAjCIdz46gj1yjCNMlXJbZjejgZIwgY8wDAYDVR0T
AQH/BAIwADAOBgNVHQ8BAf8EBAMCBaAwEwYDVR0lBAwwCgYIKwYBBQUHAwEwGgYD
VR0RBBMwEYIJbG9jYWxob3N0hwR/AAABMB0GA1UdDgQWBBTRoBjy1mzRYdDcuAok
9NZbzEiqKzAfBgNVHSMEGDAWgBSgpb8qM1tO15qHbqhNYGcF4t16pjANBgkqhkiG
9w0BAQsFAAOCAQEAPPrSI67sqya4fZHaWD1WT9nLQ1dTOwBqz9XNIMoCZabi1Qsp
nX7GqYkr9g8Si369ObOGPlhWCpeqD4O4s2uhEJ9klAtXWQ6ORTwJ/Nq22PrbIamH
BW+KKccybffUXU7nuXypJHvZ5JbIzl+ODZdCyiwS5Zq4KzNr4g6f2Vhoy5PAW/LG
yIPBZ6oyzdLqi5xiW27tdlYgBdH48s50RnQfvDNnAPVOSaC/ajNG9pDZE0vMFT92
UOpYvfamrqg83tgpoUNLuHy8QBkO0kdmdvezURvHxiuBcrDzcX7NnX0i4wVk3/oe
WdqF1tfjSbfK3cjaAxGu4Ix7I8kK8Goi/LdpbQ==
-----END CERTIFICATE-----
`,
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgphqijjJWnRntndol
4A4ttn3AQBWPK/RYZPK5F3slkZShRANCAAQ+ksBXjYt4nAvm9YGBHss0VKYjHp2e
aT9SujRvCiMzM35XOVdrMwGq7H0osDxqzQIwiHc+OoI9cowjTJVyW2Y3
-----END PRIVATE KEY-----
`,
};
