module eks-gitops.local/test-tools/validation-coverage

go 1.24
