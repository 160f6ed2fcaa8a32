// Go's net/http client (its own HTTP/1.1 and HTTP/2 implementations) against the test app, for
// tests/server/go-client.test.ts: go run with the server's URL, the CA file ("" for none) and the
// protocol (h2: TLS with ALPN h2; h1: TLS with HTTP/1.1 only; h2c: cleartext HTTP/2 with prior
// knowledge). Prints what it saw as one JSON object.
package main

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

type result map[string]any

func main() {
	base, caFile, mode := os.Args[1], os.Args[2], os.Args[3]
	out := result{}
	pool := x509.NewCertPool()
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			panic(err)
		}
		pool.AppendCertsFromPEM(pem)
	}
	transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true, ExpectContinueTimeout: time.Second}
	protocols := new(http.Protocols)
	switch mode {
	case "h2":
		protocols.SetHTTP2(true)
	case "h1":
		protocols.SetHTTP1(true)
	case "h2c":
		protocols.SetUnencryptedHTTP2(true)
	}
	transport.Protocols = protocols
	client := &http.Client{Transport: transport, Timeout: 20 * time.Second}
	get := func(path string) (*http.Response, []byte) {
		resp, err := client.Get(base + path)
		if err != nil {
			panic(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			panic(err)
		}
		return resp, body
	}
	resp, body := get("/hello")
	out["hello"] = []any{resp.Proto, resp.StatusCode, string(body)}

	var wg sync.WaitGroup
	var mu sync.Mutex
	wrong, protos := 0, map[string]bool{}
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			resp, body := get(fmt.Sprintf("/repeat?id=%d&n=1000&unit=ab", i))
			mu.Lock()
			defer mu.Unlock()
			protos[resp.Proto] = true
			if string(body) != fmt.Sprintf("%d:%s", i, strings.Repeat("ab", 1000)) {
				wrong++
			}
		}(i)
	}
	wg.Wait()
	out["concurrent"] = []any{wrong, len(protos)}

	sent := make([]byte, 5<<20)
	rand.Read(sent)
	resp, err := client.Post(base+"/echo", "application/octet-stream", bytes.NewReader(sent))
	if err != nil {
		panic(err)
	}
	echoed, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	a, b := sha256.Sum256(sent), sha256.Sum256(echoed)
	out["echo5MiB"] = []any{len(echoed), hex.EncodeToString(a[:]) == hex.EncodeToString(b[:])}

	// A body of unknown length: chunked on HTTP/1.1, DATA frames on HTTP/2.
	pr, pw := io.Pipe()
	go func() {
		for i := 0; i < 100; i++ {
			pw.Write(bytes.Repeat([]byte{'x'}, 1000))
		}
		pw.Close()
	}()
	resp, err = client.Post(base+"/count-body", "application/octet-stream", pr)
	if err != nil {
		panic(err)
	}
	counted, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	out["unknownLength"] = string(counted)

	// Expect: 100-continue with a body.
	req, _ := http.NewRequest("POST", base+"/echo", bytes.NewReader(bytes.Repeat([]byte{'y'}, 200000)))
	req.Header.Set("Expect", "100-continue")
	resp, err = client.Do(req)
	if err != nil {
		panic(err)
	}
	continued, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	out["expectContinue"] = []any{resp.StatusCode, len(continued)}

	// Trailers both ways (request trailers need a body of unknown length).
	tr, tw := io.Pipe()
	treq, _ := http.NewRequest("POST", base+"/trailers", tr)
	treq.Trailer = http.Header{"X-Client": nil}
	go func() {
		tw.Write([]byte("twelve bytes"))
		treq.Trailer.Set("X-Client", "from-go")
		tw.Close()
	}()
	resp, err = client.Do(treq)
	if err != nil {
		panic(err)
	}
	tbody, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	out["trailers"] = []any{string(tbody), resp.Trailer.Get("X-Length"), resp.Trailer.Get("X-Echo")}

	resp, body = get("/stream?parts=4")
	out["stream"] = string(body)
	resp, body = get("/big?kb=4096")
	allA := len(body) == 4096*1024 && bytes.Count(body, []byte{'a'}) == len(body)
	out["big"] = []any{len(body), allA}

	encoded, _ := json.Marshal(out)
	fmt.Println(string(encoded))
}
