module kubectl-crd.local/goyaml-verdict

go 1.24.0

// The Kubernetes release the test suite's API server runs (hack/envtest-versions.env):
// its apimachinery splits streams as kubectl does, and its sigs.k8s.io/yaml (with go-yaml
// v2) converts them. A test checks that this stays in step with KUBERNETES_VERSION.
require (
	k8s.io/apimachinery v0.34.4
	sigs.k8s.io/yaml v1.6.0
)

require (
	go.yaml.in/yaml/v2 v2.4.2 // indirect
	sigs.k8s.io/json v0.0.0-20241014173422-cfa47c3a1cc8 // indirect
)
