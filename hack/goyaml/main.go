// Command goyaml-verdict prints what kubectl makes of YAML or JSON streams: for each
// document kubectl would decode, the JSON that sigs.k8s.io/yaml (go-yaml v2) gives it,
// or the error text kubectl would show. It is the oracle of kubectl-crd's YAML
// differential test (tests/unit/io/test_goyaml_differential.py), built by
// hack/goyaml-converter.sh.
//
// The split mirrors kubectl's resource builder (k8s.io/cli-runtime StreamVisitor, which
// uses k8s.io/apimachinery/pkg/util/yaml.NewYAMLOrJSONDecoder): a stream whose first
// non-space byte is "{" is read as JSON values first; anything else is cut into
// documents by YAMLReader at "---" lines and each piece is decoded by
// sigs.k8s.io/yaml.Unmarshal, which is YAMLToJSON (go-yaml v2 into interface{}, keys made
// strings, json.Marshal) then a JSON decode. The pieces are decoded here one by one
// exactly as YAMLToJSONDecoder does, so that each verdict can name the line its piece
// starts on.
//
// Usage:
//
//	goyaml-verdict FILE...     one JSON line per file
//	goyaml-verdict -strings    stdin is a JSON array of streams; one JSON line per stream
//	goyaml-verdict -exec       stdin is a JSON array of exec plugin outputs; one JSON line
//	                           per output: {"json": <value>} or {"error": "..."}, what
//	                           client-go's universal decoder makes of it before the
//	                           ExecCredential itself (kubectl_crd.kube.clientdecode)
//
// Each line is {"mode": "yaml"|"json", "docs": [...], "stop": "..."} where a doc is
// {"line": N, "json": <value>} or {"line": N, "error": "..."} (N: the 1-based line its
// piece starts on; 0 in JSON mode), and "stop" is the error that ends kubectl's reading
// of the stream (an invalid separator line, a JSON stream that breaks), if any.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

type doc struct {
	Line  int             `json:"line"`
	JSON  json.RawMessage `json:"json,omitempty"`
	Error string          `json:"error,omitempty"`
}

type verdict struct {
	Mode string `json:"mode"`
	Docs []doc  `json:"docs"`
	Stop string `json:"stop,omitempty"`
}

// kubectl's StreamVisitor asks for 4096 bytes to guess whether a stream is JSON.
const guessSize = 4096

func judge(data []byte) verdict {
	if _, _, isJSON := utilyaml.GuessJSONStream(bytes.NewReader(data), guessSize); isJSON {
		return judgeJSON(data)
	}
	return judgeYAML(data)
}

func judgeJSON(data []byte) verdict {
	out := verdict{Mode: "json", Docs: []doc{}}
	decoder := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), guessSize)
	for {
		// json.RawMessage, like kubectl's runtime.RawExtension, is a json.Unmarshaler:
		// sigs.k8s.io/yaml then converts without a target type (no string coercion).
		var raw json.RawMessage
		err := decoder.Decode(&raw)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			out.Stop = err.Error()
			return out
		}
		out.Docs = append(out.Docs, doc{JSON: orNull(raw)})
	}
}

func judgeYAML(data []byte) verdict {
	out := verdict{Mode: "yaml", Docs: []doc{}}
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	line := 1
	for {
		piece, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			out.Stop = err.Error()
			return out
		}
		var raw json.RawMessage
		if err := yaml.Unmarshal(piece, &raw); err != nil {
			out.Docs = append(out.Docs, doc{Line: line, Error: err.Error()})
		} else {
			out.Docs = append(out.Docs, doc{Line: line, JSON: orNull(raw)})
		}
		// LineReader ends every line with "\n"; the "---" line that ended this piece
		// belongs to no piece.
		line += bytes.Count(piece, []byte("\n")) + 1
	}
}

// orNull: a document of nothing but comments leaves the raw value empty (kubectl skips
// it, as it skips "null").
func orNull(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

// execDecoded mirrors apimachinery's universal decoder on an exec plugin's output
// (runtime/serializer/recognizer, runtime/serializer/json Decode): the JSON serializer
// when the data starts with "{" (IsJSONBuffer), else the YAML one (YAMLToJSON first);
// then the meta factory's Interpret (json.Unmarshal into the apiVersion/kind struct).
func execDecoded(data []byte) doc {
	js := data
	if !utilyaml.IsJSONBuffer(data) {
		converted, err := yaml.YAMLToJSON(data)
		if err != nil {
			return doc{Error: err.Error()}
		}
		js = converted
	}
	findKind := struct {
		APIVersion string `json:"apiVersion,omitempty"`
		Kind       string `json:"kind,omitempty"`
	}{}
	if err := json.Unmarshal(js, &findKind); err != nil {
		return doc{Error: "couldn't get version/kind; json parse error: " + err.Error()}
	}
	return doc{JSON: orNull(js)}
}

func main() {
	encoder := json.NewEncoder(os.Stdout)
	encoder.SetEscapeHTML(false)
	args := os.Args[1:]
	if len(args) == 1 && (args[0] == "-strings" || args[0] == "-exec") {
		var streams []string
		if err := json.NewDecoder(os.Stdin).Decode(&streams); err != nil {
			fmt.Fprintln(os.Stderr, "goyaml-verdict: stdin is not a JSON array of strings:", err)
			os.Exit(2)
		}
		for _, stream := range streams {
			if args[0] == "-exec" {
				_ = encoder.Encode(execDecoded([]byte(stream)))
			} else {
				_ = encoder.Encode(judge([]byte(stream)))
			}
		}
		return
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: goyaml-verdict FILE... | goyaml-verdict -strings < streams.json")
		os.Exit(2)
	}
	for _, path := range args {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "goyaml-verdict:", err)
			os.Exit(1)
		}
		_ = encoder.Encode(judge(data))
	}
}
