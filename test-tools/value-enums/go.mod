module eks-gitops.local/test-tools/value-enums

go 1.24
