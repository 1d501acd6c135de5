from kubectl_crd.cli.root import main

main()
